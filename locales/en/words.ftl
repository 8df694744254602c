# Punctuation between the pieces of a page's sentence (a template joins a
# label and a value): half-width in English, full-width in Chinese.
punct-colon = {": "}
punct-comma = {", "}
punct-open = {" ("}
punct-close = )
# A person named by their display name beside their login.
name-with-login = {$display} ({$login})
# The two programs of a similar pair (/admin/similar).
similar-col-first = program A
similar-col-second = program B
# A contestant's answer that could not be read as moves (PE): what it is,
# instead of "no legal move".
html-answer-unreadable = (not read as moves: see the reason above)
