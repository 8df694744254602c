report-near-limit = AC* = 通过，但用时超过时间限制（{$limit} ms）的 80%：换一台更慢或更忙的机器可能会 TLE

html-grading = 评测报告：{$problem}
html-contest = 比赛：{$contest}
html-file-io = 文件输入输出：程序读 {$input}，写 {$output}。
html-sandbox = 沙箱：{$protections}
html-broken-tests = 数据有误的测试点（所有人都是 FAIL：测试数据错了）：
html-rank = 排名
html-contestant = 选手
html-total = 总分
html-judge-error = 评测机错误
html-judge-error-because = 评测机错误：{$error}
html-grid-ce = CE 编译错误
html-compilation-error = 编译错误
html-test = 测试点
html-verdict = 结果
html-time = 用时
html-memory = 内存
html-reason = 原因
html-broken-test = 这个测试点的数据有误（见顶部）
html-their-answer = 选手的答案
html-the-reference = 标准答案
html-replayed = 回放
html-same-moves-as = 与以下选手的移动相同：
html-replayed-there = ，回放见那里
html-diff = 输出与标准答案对比
html-no-legal-move = （没有合法的移动）
html-move = 第 {$k} 步：{$move}
html-before = 移动前：{$blocks} 个方块
html-pass = 第 {$k} 轮消除：消去 {$n} 个
html-after = 之后：剩 {$blocks} 个
html-reference-heading = 测试点 {$test}：标准答案
html-reference-size = n = {$n}，{$blocks} 个方块
html-the-puzzle = 初始棋盘
html-no-solution = -1：无解
html-references = 未通过的测试点的标准答案

text-file-io = 文件输入输出：程序在自己的文件夹中读 {$input}，写 {$output}
text-broken-tests = 数据有误的测试点（所有提交都是 FAIL：测试数据错了）：
text-judge-error = FAIL 评测机错误：{$error}
text-compilation-failed = CE 编译错误：
text-test = 测试点
text-verdict = 结果
text-time = 用时
text-memory = 内存
text-reason = 原因
text-score = 得分：{$score} / {$max}
text-summary = 汇总（{$n} 个提交）
text-submission = 提交
text-score-column = 得分
text-verdicts = 结果

ranking-header = {$problem}：{$contestants} 名选手，{$tests} 个测试点，时间限制 {$limit} ms，{$io}
ranking-file-io = 文件输入输出（{$input} 和 {$output}）
ranking-stdio = 标准输入输出
ranking-contest = 比赛：{$contest}
ranking-rank = 排名
ranking-contestant = 选手
ranking-total = 总分
ranking-fail = FAIL（评测机错误）
ranking-tests = 测试点：{$tests}
ranking-broken-tests = 数据有误的测试点（所有选手都是 FAIL：错的是测试数据，不是程序）：
ranking-not-graded = 未评测：
ranking-judge-error = 评测机错误：{$error}
ranking-ce = CE 编译错误：{$first}

# 反例：找到的让程序出错的最小棋盘。
cx-heading = 找到的让程序出错的最小棋盘：
cx-found = n = {$n}，{$blocks} 个方块（搜索了 {$boards} 个棋盘，运行 {$runs} 次）
cx-board = 棋盘
cx-nothing = （无输出）
cx-input = 输入
cx-output = 程序的输出
cx-smallest = 标准答案
cx-their-moves = 选手的移动
cx-no-legal-move = 没有可回放的合法移动
cx-no-solution = -1：无解
cx-failed-before-check = 见上方文字（程序在输出被检查前就运行失败了）

## 成绩工作簿（grade --xlsx、/admin/report.xlsx）。
marks-sheet = 成绩
marks-rank = 排名
marks-contestant = 选手
marks-display-name = 显示名
marks-total = 总分
marks-not-graded = 未评测
