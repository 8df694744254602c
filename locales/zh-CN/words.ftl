punct-colon = ：
punct-comma = ，
punct-open = （
punct-close = ）
name-with-login = {$display}（{$login}）
similar-col-first = 程序甲
similar-col-second = 程序乙
