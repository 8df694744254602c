reason-correct = 正确
reason-empty-output = 输出为空：应输出 n 步移动或 -1
reason-not-integer = 第 {$line} 行第 {$column} 列：“{$token}”不是整数
reason-bad-token-count = 第 {$line} 行第 {$column} 列：每行应为 3 个整数“x y g”，这一行有 {$found} 个
reason-minus-one-not-alone = 第 {$line} 行第 {$column} 列：“-1”必须独占输出的唯一一行
reason-too-many-lines = 第 {$line} 行第 {$column} 列：移动多于 n = {$n} 步
reason-too-few-lines = 只给出 {$found} 步，要求恰好 n = {$n} 步
reason-illegal-move = 第 {$index} 步“{$text}”不合法：{$why}
reason-emptied-early = 第 {$index} 步后棋盘已经清空，但要求恰好 n = {$n} 步
reason-blocks-left = {$moves} 步之后棋盘上还剩 {$blocks} 个方块
reason-missed-solution = 输出了 -1，但有解（标准答案的第一步是“{$first}”）
reason-not-smallest = 这些移动能清空棋盘，但不是字典序最小的解：第 {$index} 步是“{$theirs}”，标准答案的第 {$index} 步是“{$expected}”
reason-bad-answer-file = 评测机错误：标准答案文件：{$detail}
reason-bad-input = 评测机错误：输入的棋盘不合法：{$detail}
reason-answer-disagrees = 评测机错误：标准答案“{$stored}”与求解器的答案“{$solver}”不一致
reason-solver-missed = 评测机错误：移动“{$moves}”合法地清空了求解器认为无解的棋盘
reason-at = 第 {$line} 行第 {$column} 列：{$reason}

illegal-x = x = {$n} 超出棋盘（0 到 4）
illegal-y = y = {$n} 超出棋盘（0 到 6）
illegal-g = g = {$n}，只能是 1 或 -1
illegal-off-edge = x + g = {$n}，方块会被移出棋盘
illegal-empty-cell = 格子（{$x}, {$y}）是空的
illegal-empty-board = 棋盘已经空了
illegal-noop = 格子（{$x}, {$y}）与相邻格子颜色相同（no-noop 读法下不算一步）

run-cpu-over = CPU 时间超过 {$limit} ms
run-cpu-over-measured = CPU 时间超过 {$limit} ms（用时 {$time} ms）
run-wall-over = 实际运行时间超过限制（CPU {$time} ms）：程序在休眠或被阻塞？
run-exit-code = 退出码 {$code}
run-killed = 被信号 {$signal} 终止
run-memory-over = 内存超过 {$mib} MiB
run-output-over = 输出超过 {$kib} KiB（或某个文件超过限制）
run-no-output-file = 没有写出 {$file}（文件输入输出：评测的是这个文件）
run-stdout-instead = ；程序写到了标准输出
run-again = {$reason}（共运行 {$runs} 次：之前几次都是接近时限的 TLE，用时 {$times}）
run-judge-error = 评测机错误：{$detail}
run-file-io-hint = ；程序的源代码打开了 {$file}，它用文件输入输出（NOIP 方式），请用 --file-io {$stem} 评测（或在 problem.toml 中写 [io]）
broken-test = {$test}：{$reason}
run-broken-test = 这个测试点的数据有误（见上方）
