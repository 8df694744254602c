punct-colon = ：
punct-comma = ，
punct-open = （
punct-close = ）
name-with-login = {$display}（{$login}）
similar-col-first = 程序甲
similar-col-second = 程序乙
html-answer-unreadable = （无法读成移动：原因见上）
