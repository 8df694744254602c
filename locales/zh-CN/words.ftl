punct-colon = ：
punct-comma = ，
punct-open = （
punct-close = ）
name-with-login = {$display}（{$login}）
