console-serve-start = {$contest}：{$problem}（{$contestants} 名选手，数据库 {$db}）
console-serve-requeued = 上次停止时中断的 {$n} 份提交将重新评测
console-serve-passwords = 生成的密码（只显示这一次；也保存在 {$file}，权限 0600）：
console-serve-open = 在浏览器中打开 {$url}
console-serve-backup = 已把 {$db} 备份到 {$copy}

console-grade-one = 正在评测 {$name}
console-grade-many = 正在评测 {$n} 个程序：编译和测试同时进行 {$jobs} 个
console-grade-test = #{$n} {$test}：{$verdict}（{$ms} ms）

console-show-puzzle = 题目：n = {$n}，共 {$blocks} 个方块
console-show-smallest = 字典序最小的解（{$reading}）：
console-show-none = 无解：答案是 -1
console-show-file-none = 移动文件写的是 -1
console-show-cleared = {$n} 步之后棋盘已清空
console-show-not-solution = 不是一个解：{$reason}

console-dry-run = {$source} 中的选手与数据库 {$db}{$new} 对比：
console-dry-run-new = （新建）
console-dry-run-no-file = 没有比赛文件

replay-caption-move = 第 {$index} 步：{$move}
replay-caption-before = 移动前：
replay-caption-step = 第 {$step} 轮消除：消去 {$cleared} 个方块
replay-caption-nothing = 没有方块被消去
replay-caption-after = 第 {$index} 步之后：还剩 {$blocks} 个方块
