# Script mode helper of slabcast_embed_text: IN, OUT, SYMBOL.
file(READ ${IN} text)
string(REPLACE "\\" "\\\\" text "${text}")
string(REPLACE "\"" "\\\"" text "${text}")
string(REPLACE "\n" "\\n\"\n\"" text "${text}")
file(WRITE ${OUT} "/* generated from ${IN} */\nconst char ${SYMBOL}[] =\n\"${text}\";\n")
