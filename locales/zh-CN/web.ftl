nav-statement = 题目
nav-submit = 提交
nav-submissions = 提交记录
nav-ranking = 排名
nav-clarifications = 答疑
nav-teacher = 教师
nav-every-submission = 全部提交
nav-your-submissions = 我的提交
nav-sign-out = 退出登录
clock-zone = 时间为 {$zone}
clock-open = 自由练习
clock-starts = 距开始还有 {$left}
clock-ends = 距结束还有 {$left}
clock-ends-frozen = 距结束还有 {$left}（排名已封榜）
clock-over = 比赛已结束

status-400 = 请求有误
status-401 = 未登录
status-403 = 请求被拒绝
status-404 = 页面不存在
status-413 = 内容过大
status-429 = 请求过于频繁
status-503 = 服务暂不可用
fail-sign-in = 请先登录。
fail-not-found = 没有这个页面。
fail-storage = 评测机无法保存，因此什么也没有保存：{$error}。请告诉老师，然后再试一次。
fail-too-many-requests = 请求过于频繁：请等几秒钟。
fail-teacher-only = 只有教师可以打开这个页面。
fail-form-expired = 表单已过期（安全令牌不匹配）：请刷新页面后重试。
error-back = 返回

none-yet = 暂无。
cancel = 取消
back-to-teacher = 返回教师页面
col-rank = 排名
col-contestant = 选手
col-score = 得分
col-solved = 通过
col-penalty = 罚时
col-submissions = 提交次数
col-submitted = 提交时间
col-language = 语言
col-status = 状态
col-time = 用时
col-test = 测试点
col-verdict = 结果
col-memory = 内存
col-reason = 原因

login-heading = 登录
login-name = 用户名
login-password = 密码

home-problem = {$title}：{$tests} 个测试点，满分 {$points} 分，时间限制 {$ms} ms，内存限制 {$mib} MiB。
home-announcements = 公告
home-window-open = 自由练习：随时可以提交。
home-window-timed = 比赛时间：{$start} 至 {$end}。
home-rules-oi = 赛制：OI。以最后一次提交为准。
home-rules-ioi = 赛制：IOI。以得分最高的一次提交为准。
home-rules-acm = 赛制：ACM。按通过题数排名，同题数按罚时排名。
home-solution = 题解
home-tests-zip = 下载测试数据（zip）
solution-heading = 题解

statement-samples = 样例图示
statement-sample = 样例 {$k}：n = {$n}
statement-limits = 时间限制 {$ms} ms，内存限制 {$mib} MiB，源代码不超过 {$kib} KiB。
statement-other-language = 本题暂无中文题面，下面是{$language}题面。

submit-detect = 根据文件名判断
submit-file = 文件
submit-paste = 或粘贴源代码
submit-at-most = 源代码不超过 {$kib} KiB。
submit-remaining = 还可以提交 {$n} 次。

submissions-none = 暂无提交。
submissions-older = 更早的提交 →
submissions-newest = ← 最新的提交
submissions-yours = 我的提交
submissions-of = {$name} 的提交
submission-heading = 提交 #{$id}
submission-judged-times = 已评测 {$n} 次
submission-status = 状态
submission-score = 得分
submission-compile-error = 编译错误
submission-hidden-tests = 另有 {$n} 个测试点未显示（本场比赛的反馈规则）。
submission-replay = 逐步回放未通过的测试点
submission-source = 源代码
replay-heading = 提交 #{$id} 的回放
replay-submitted = 提交于 {$when}
replay-score = 得分 {$score}
replay-intro = 每个未通过的测试点：原因，你的答案与标准答案对照，以及在棋盘上逐步回放（移动的方块加框并标出箭头，每一轮消除中被消去的方块打叉，第一步错误的移动加框）；最后是各测试点的标准答案。
replay-section = 提交 #{$id}：{$file}
replay-sandbox = 比赛的沙箱

ranking-frozen = 排名已封榜：最后几分钟的提交在比赛结束前显示为等待中。
ranking-disqualified = 已取消资格

clar-question = 向老师提问
clar-ask = 提问
clar-asked = 提问于
clar-answered = ，回答于
clar-to-everybody = 公开回答
clar-answer = 回答
clar-not-answered = 尚未回答。
clar-public = 公开给所有人

admin-heading = 教师
admin-queue = {$n} 个提交正在等待或评测中。
admin-unanswered = {$n} 个未回答
admin-reports = 成绩报告
admin-reports-intro-html = 与 <code>grade --contest</code> 相同的报告，取每位选手的最后一次提交：
admin-programs = 每位选手的最后一个程序，用于离线评测：
admin-layout = {$name} 格式
admin-grades = 导入成绩册的最终成绩：
admin-keeping = 备份
admin-backup = 下载备份
admin-backup-what = （整场比赛的一份一致副本，评测机运行时也可以下载）。
admin-announce = 发布公告
admin-rejudge = 重新评测
admin-rejudge-all = 重新评测全部提交…
admin-rejudge-one = 重新评测…
admin-contestants = 选手
admin-roster = 重新读取选手名单文件
admin-roster-what = ：比赛进行中也可以加入新选手（先显示将要发生的变化）。
admin-col-name = 用户名
admin-col-shown-as = 显示名
admin-reinstate = 恢复资格
admin-disqualify = 取消资格…
admin-new-password = 重置密码
admin-sign-out-everywhere = 全部退出登录
password-heading = {$name} 的新密码
password-give = 请把它交给 {$name}：只在这里显示一次，服务器只保存它的哈希值。此人所有的登录会话和 API 令牌都已失效。
roster-heading = 选手名单
roster-nothing-changed = 什么都没有改变。请改正文件，然后
roster-read-again = 重新读取
roster-applied = 已应用
roster-passwords = 生成的密码（只显示一次；也保存在 passwords.csv 中）
roster-col-password = 密码
roster-source = 选手名单文件
roster-no-file = 没有比赛配置文件
roster-dry-run = ，刚刚重新读取。这是预览：还没有做任何改变。
roster-apply = 应用这些改变
confirm-rejudge = 重新评测？
confirm-rejudge-yes = 确定，重新评测
confirm-rejudge-one = 重新评测 {$name} 的提交 #{$id}？在重新评测完成前，它的结果显示为等待中。
confirm-rejudge-user = 重新评测 {$name} 的全部提交（{$n} 个）？在重新评测完成前，这些结果显示为等待中。
confirm-rejudge-all = 重新评测所有选手的全部提交（{$n} 个）？在重新评测完成前，所有结果显示为等待中，评测队列与整场比赛一样长。
confirm-disqualify = 取消资格？
confirm-disqualify-yes = 确定，取消资格
confirm-disqualify-what = 取消 {$name} 的资格？此人将不能再提交，并从排名和成绩报告中移除（恢复资格后会回来）。

similar-heading = 相似程序
similar-intro-html = 比较每位选手的最后一个程序（共 {$programs} 个）：改名、改排版、调换函数顺序、换一种语言重写都掩盖不了相似之处；大多数程序共有的代码几乎不计分。相似度达到 {$threshold} 的程序对会被标出（详见 <code>mayan-judge similar</code> 与 docs/SIMILAR.md）。
similar-group = 分组
similar-col-similarity = 相似度
similar-col-share = {$who} 中相同部分的比例
similar-none = 还没有两个程序有相同的部分。
similar-too-deep = { $name }：嵌套过深，无法比较（第 { $line } 行嵌套超过 { $limit } 层）；其余程序照常比较。
similar-not-compared = { $name }：无法解析，未参与比较；其余程序照常比较。

status-queued = 等待评测
status-judging = 评测中
status-compiling = 编译中
status-running = 正在评测第 {$k} 个测试点（共 {$n} 个）
status-judged = 已评测
status-judged-later = 已评测（比赛结束后公布结果）
status-verdict = {$code} {$name}

refusal-wrong-password = 用户名或密码错误。
refusal-sign-ins-source = 这个用户名从这个浏览器或地址输错密码的次数过多：请等 {$seconds} 秒再试。
refusal-sign-ins-account = 这个用户名来自未知设备的登录过多（输错密码，或排队的太多）：请用以前登录过的浏览器登录，或等 {$seconds} 秒。
refusal-sign-ins-running = 这个浏览器或地址对这个用户名的登录正在核对：请等它的结果。
refusal-sign-ins-queue = 评测机正在处理很多登录请求：请几秒钟后再试。
refusal-disqualified = 你已被取消资格：老师停止了你的提交。
refusal-contest-over = 比赛已结束：现在不能提交。
refusal-contest-not-started = 比赛还没有开始：现在不能提交。
refusal-used-all = 你已经用完了全部 {$max} 次提交机会。
refusal-empty-source = 源代码为空：请选择文件或粘贴程序。
refusal-too-large = 源代码超过 {$kib} KiB：拒绝接收。
refusal-too-many-submissions = 连续提交太频繁：请等一分钟。
refusal-language-not-allowed = 本场比赛不允许使用语言“{$language}”。
refusal-choose-language = 请选择语言：无法从文件名判断。
refusal-questions = 你已经提了 {$n} 个问题，达到本场比赛的上限。
refusal-field-empty = {$what}为空。
refusal-field-long = {$what}超过 2000 个字符。
field-question = 问题
field-answer = 回答
field-announcement = 公告

# 服务器的限制（同一地址后的一个班；攻击者的失败尝试）。
refusal-sign-ins-address = 你所在网络的登录请求过多（输错密码，或已占满它在队列中的份额）：请等 {$seconds} 秒再试。
fail-too-many-connections = 你与评测机的连接过多：请关掉一些标签页、窗口或程序，然后再试。
fail-too-many-streams = 你打开的实时页面过多（每个窗口或浏览器占一个）：请关掉一些，然后刷新。

# 教师页面：谁占用着评测机。
holders-heading = 谁占用着评测机
holders-intro = 最近一两分钟里实时页面（事件流）、连接和请求最多的账号。一个浏览器占一个事件流、最多六个连接；一个账号最多占 8 个事件流、32 个连接。
holders-col-streams = 事件流
holders-col-connections = 连接
holders-col-requests = 请求
holders-none = 还没有人登录。

# 正在比较时的相似程序页面。
similar-computing-html = 正在比较各选手的最后程序：本页稍后会自动刷新（或<a href="">再看一次</a>）。
similar-comparison = 这是服务器启动以来的第 {$n} 次比较。

# 提交页面上：程序出错的最小棋盘。
counterexample-title = 你的程序出错的最小棋盘
counterexample-searching = 正在寻找能让程序出错的小棋盘（找到后本页会显示）……
counterexample-none = 在搜索范围内没有找到出错的小棋盘：出错的测试点更大。

# 教师页面上阈值由哪条规则决定，以及班级的中位数与离散度取自哪些程序对。
similar-rule-class = 阈值 { $threshold }：本班相似度中位数 { $median } 之上 { $spreads } 个离散度（离散度 { $spread }）。
similar-rule-floor = 阈值 { $threshold }：取下限，因为本班相似度中位数 { $median } 之上 { $spreads } 个离散度（离散度 { $spread }）低于下限。
similar-rule-ceiling = 阈值 { $threshold }：取上限，因为本班相似度中位数 { $median } 之上 { $spreads } 个离散度（离散度 { $spread }）高于上限。
similar-rule-fixed = 阈值 { $threshold }：固定值；本班相似度中位数 { $median }（离散度 { $spread }）。
similar-rule-small-class = 阈值 { $threshold }：程序少于 { $min } 个的班级没有自己的分布，使用默认值。
similar-over-every-pair = 中位数与离散度取自 { $pairs } 个程序对。
similar-over-sharing-pairs = 大多数程序对毫无相同之处，因此中位数与离散度只取自有相同部分的 { $pairs } 个程序对。
