/* split_ref.c - an outside program against the installed split library: the plain-C reference of a
 * stable multisplit by the low 2 bits, checked by hand. */
#include <split.h>

#include <stdint.h>
#include <stdio.h>

int main(void)
{
    const uint32_t keys[8] = {7, 4, 1, 2, 8, 5, 3, 6};
    const uint32_t want_keys[8] = {4, 8, 1, 5, 2, 6, 7, 3};
    const uint32_t want_offsets[5] = {0, 2, 4, 6, 8};
    uint32_t out[8] = {0}, offsets[5] = {0};

    split_desc d = {0};
    d.key_type = SPLIT_KEY_U32;
    d.n = 8;
    d.keys_in = keys;
    d.keys_out = out;
    d.buckets.rule = SPLIT_BUCKETS_BITS;
    d.buckets.bit_count = 2;
    d.bucket_offsets = offsets;
    if (split_multisplit_ref(&d) != SC_OK) {
        fprintf(stderr, "split_ref: %s\n", sc_last_error());
        return 1;
    }
    for (int i = 0; i < 8; ++i) {
        if (out[i] != want_keys[i] || (i < 5 && offsets[i] != want_offsets[i])) {
            fprintf(stderr, "split_ref: FAILED at %d: key %u (want %u)\n", i, out[i], want_keys[i]);
            return 1;
        }
    }
    printf("split_ref: 8 keys split into 4 buckets, stable\n");
    return 0;
}
