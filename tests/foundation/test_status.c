/* test_status.c - status names, per-thread last error, log callback (cpu). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sc_report.h"
#include "sctest.h"

static void test_names_cover_every_status(void)
{
    for (int s = 0; s < SC_STATUS_COUNT; ++s) {
        SCT_CHECK(strncmp(sc_status_name((sc_status)s), "SC_", 3) == 0);
        SCT_CHECK(strlen(sc_status_description((sc_status)s)) > 0);
    }
    SCT_CHECK(strcmp(sc_status_name(SC_ERROR_CANCELLED), "SC_ERROR_CANCELLED") == 0);
    SCT_CHECK(strcmp(sc_status_name(SC_STATUS_COUNT), "SC_STATUS_UNKNOWN") == 0);
    SCT_CHECK(strcmp(sc_status_name((sc_status)-1), "SC_STATUS_UNKNOWN") == 0);
}

typedef struct captured { int calls; sc_log_level level; char text[1200]; } captured;

static void capture(sc_log_level level, const char *message, void *user)
{
    captured *c = user;
    ++c->calls;
    c->level = level;
    strncpy(c->text, message, sizeof c->text - 1);
}

static sc_status failing_call(int value)
{
    if (value < 0) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "failing_call: value %d is negative", value);
    return SC_OK;
}

/* The user sees the message alone (last error, error-level line); the source location arrives only
 * as a second, debug-level line. */
static void test_report_records_message_file_and_line(void)
{
    captured c = {0};
    sc_set_log_callback(capture, &c, SC_LOG_INFO);
    sc_clear_error();
    SCT_CHECK(sc_last_status() == SC_OK);
    SCT_CHECK(strcmp(sc_last_error(), "") == 0);
    SCT_CHECK(failing_call(1) == SC_OK);
    SCT_CHECK(c.calls == 0);
    SCT_CHECK(failing_call(-3) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_last_status() == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK_MSG(strcmp(sc_last_error(), "failing_call: value -3 is negative") == 0, "message: %s", sc_last_error());
    SCT_CHECK_MSG(strstr(sc_last_error(), ".c:") == NULL, "location in the user's message: %s", sc_last_error());
    SCT_CHECK(c.calls == 1 && c.level == SC_LOG_ERROR);
    SCT_CHECK(strcmp(c.text, sc_last_error()) == 0);
    sc_log(SC_LOG_INFO, "info %d", 7);
    SCT_CHECK(c.calls == 2 && strcmp(c.text, "info 7") == 0);

    /* With SC_LOG_DEBUG: the error line, then a debug line with the location. */
    c.calls = 0;
    sc_set_log_callback(capture, &c, SC_LOG_DEBUG);
    SCT_CHECK(failing_call(-4) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(c.calls == 2 && c.level == SC_LOG_DEBUG);
    const char *want = "failing_call: value -4 is negative at tests/foundation/test_status.c:";
    SCT_CHECK_MSG(strncmp(c.text, want, strlen(want)) == 0, "debug line: %s", c.text);
    SCT_CHECK_MSG(strstr(sc_last_error(), "test_status.c") == NULL, "message: %s", sc_last_error());

    sc_set_log_callback(capture, &c, SC_LOG_ERROR);
    c.calls = 0;
    sc_log(SC_LOG_INFO, "filtered");
    SCT_CHECK(failing_call(-5) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(c.calls == 1 && c.level == SC_LOG_ERROR); /* no debug line above the callback's level */
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

/* The default output (stderr) carries no source location. */
static void test_default_output_has_no_location(void)
{
    fflush(stderr);
    FILE *saved = tmpfile();
    SCT_REQUIRE(saved);
    int fd = dup(fileno(stderr));
    SCT_REQUIRE(fd >= 0);
    SCT_REQUIRE(dup2(fileno(saved), fileno(stderr)) >= 0);
    sc_set_log_callback(NULL, NULL, SC_LOG_DEBUG);
    SCT_CHECK(failing_call(-6) == SC_ERROR_INVALID_ARGUMENT);
    fflush(stderr);
    dup2(fd, fileno(stderr));
    close(fd);
    char text[512] = {0};
    rewind(saved);
    size_t got = fread(text, 1, sizeof text - 1, saved);
    fclose(saved);
    SCT_CHECK_MSG(got > 0 && strcmp(text, "slabcast: error: failing_call: value -6 is negative\n") == 0, "stderr: %s",
                  text);
}

static sc_status outer(int v)
{
    SC_TRY(failing_call(v));
    return SC_OK;
}

static void test_try_returns_first_failure(void)
{
    captured c = {0};
    sc_set_log_callback(capture, &c, SC_LOG_ERROR);
    SCT_CHECK(outer(2) == SC_OK);
    SCT_CHECK(outer(-2) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(c.calls == 1);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

static void *other_thread(void *arg)
{
    (void)arg;
    /* A fresh thread has no error, whatever the main thread recorded. */
    return (void *)(uintptr_t)(sc_last_status() == SC_OK && sc_last_error()[0] == '\0');
}

static void test_last_error_is_per_thread(void)
{
    captured c = {0};
    sc_set_log_callback(capture, &c, SC_LOG_ERROR);
    SCT_CHECK(failing_call(-1) != SC_OK);
    pthread_t t;
    void *clean = NULL;
    SCT_REQUIRE(pthread_create(&t, NULL, other_thread, NULL) == 0);
    pthread_join(t, &clean);
    SCT_CHECK(clean != NULL);
    SCT_CHECK(sc_last_status() == SC_ERROR_INVALID_ARGUMENT);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

static void test_long_messages_are_truncated_safely(void)
{
    captured c = {0};
    sc_set_log_callback(capture, &c, SC_LOG_ERROR);
    char big[4000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    SCT_CHECK(SC_FAIL(SC_ERROR_IO, "%s", big) == SC_ERROR_IO);
    SCT_CHECK(strlen(sc_last_error()) < 1024 && strlen(sc_last_error()) > 1000);
    /* The debug line keeps the location even when the text fills the buffer. */
    sc_set_log_callback(capture, &c, SC_LOG_DEBUG);
    SCT_CHECK(SC_FAIL(SC_ERROR_IO, "%s", big) == SC_ERROR_IO);
    SCT_CHECK(c.level == SC_LOG_DEBUG);
    SCT_CHECK_MSG(strstr(c.text, " at tests/foundation/test_status.c:") != NULL, "location lost");
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "status");
    SCT_RUN(test_names_cover_every_status);
    SCT_RUN(test_report_records_message_file_and_line);
    SCT_RUN(test_default_output_has_no_location);
    SCT_RUN(test_try_returns_first_failure);
    SCT_RUN(test_last_error_is_per_thread);
    SCT_RUN(test_long_messages_are_truncated_safely);
    return sct_end();
}
