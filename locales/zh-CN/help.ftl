## --help（src/commands/help.rs）：clap 的 derive 无法从目录取的文字。
help-usage = 用法：{$usage}
help-commands = 命令
help-arguments = 参数
help-options = 选项
help-flag-help = 显示帮助
help-flag-version = 显示版本
help-about = 玛雅游戏（NOIP 2011 提高组第一天第三题）评测机
help-about-solve = 输出每个谜题字典序最小的解（无解时输出 -1）
help-about-check = 评测一份输出：回放其中的移动，并与标准答案比较
help-about-grade = 在沙箱中用题目的测试点评测提交的程序
help-about-validate = 检查测试数据：输入符合规则，答案与求解器的一致
help-about-show = 在终端中逐步回放谜题上的移动（彩色）
help-about-ci = 题目包的持续集成：校验每个题目包，并评测它的参考程序
help-about-bench = 测量求解器（对照 C++ 基准）和评测的额外开销
help-about-similar = 找出一个班里哪些程序是抄的：按相似度排列的程序对，附证据
help-about-gen = 由种子可重现地生成新的测试点（.in 和 .ans）
help-about-export = 把题目包写成其他评测系统的格式（Kattis、Polygon、Hydro、DMOJ、CMS、LemonLime）
help-about-stress = 在随机棋盘上运行一个程序直到它出错，再把棋盘缩到最小
help-about-doctor = 检查这台机器的沙箱：各项保护，以及让计时不稳定的因素
help-about-serve = 运行在线评测：选手登录、提交，并实时看到结果
help-about-backup = 写出数据库的一致副本（SQLite 的在线备份，一步完成），不论是否有服务器在用它；副本的权限为 0600
help-about-help = 显示这条信息或指定命令的帮助
help-flag-help-more = 显示帮助（--help 显示更多）
help-flag-help-summary = 显示帮助（-h 显示摘要）
help-values = （可选值：{$values}）
help-values-separator = 、
help-aliases = （别名：{$aliases}）
help-default = （默认：{$value}）

## 每个参数的帮助（help-arg-<命令>-<参数>）与选项之后的说明和退出码
## （help-after-<命令>）。只有中文：英文是 src/cli.rs 的文档注释。
help-after =
    退出码：
      check（testlib 协议）：   0 AC，1 WA，2 PE，3 FAIL（评测机错误）
      check --protocol kattis： 42 通过，43 答案错误，1 评测机错误
      check --protocol lemon：  0 已评测（分数写入 SCORE_FILE），3 评测机错误
      validate：                0 全部合法，1 发现问题，2 题目包或文件无法读取
      ci：                      0 全部符合预期，1 不符或题目包损坏，2 根目录无法读取
      grade：                   0 每个测试点 AC，1 有测试点不是 AC，2 评测机或配置错误
      stress：                  0 没有出错，1 找到出错的棋盘，2 评测机或配置错误
      solve、bench、gen：       0 成功，2 输入错误、评测机或配置错误
      export：                  0 已写出，2 拒绝或失败（什么也没写）
      doctor：                  0 没有 FAIL 的检查，1 有检查 FAIL，2 错误
      serve：                   0 被 Ctrl-C 或 SIGTERM 停止，2 配置错误
      similar：                 0 没有相似度达到阈值的程序对，1 有程序对被标出，2 没有可比较的程序或选项错误

help-arg-solve-files = 谜题文件（“-” 读标准输入）
help-arg-solve-reading = 规则的读法：literal、no-noop、at-most 或 no-noop+at-most
help-arg-solve-stats = 输出每个谜题搜索的结点数、用时和内存峰值（到标准错误）
help-arg-solve-memory = 求解器死状态表最多使用的内存（如 256M、2G）；表满时忘掉最便宜的条目，求解变慢，但不会出错或中止

help-after-check = 退出码（testlib）：0 AC，1 WA，2 PE，3 FAIL（评测机错误，如输入有误，或存储的答案与求解器不一致）。
help-arg-check-files = 按协议顺序给出的文件：testlib：INPUT OUTPUT [ANSWER [RESULT_FILE [-appes]]]；kattis：INPUT ANSWER FEEDBACK_DIR [IGNORED...]，输出从标准输入读；lemon：INPUT OUTPUT ANSWER FULL_SCORE SCORE_FILE MESSAGE_FILE
help-arg-check-protocol = 评测系统的调用约定：testlib（Polygon、Hydro、LOJ、UOJ、DMOJ 的 testlib 校验器：结果和消息写到标准错误，退出码 0、1、2 或 3；RESULT_FILE 得到消息，加 “-appes” 时是 testlib 的 XML 结果）；kattis（Kattis 题目格式，也用于 DOMjudge：退出码 42 通过，43 答案错误，其他为评测机错误；消息写入 FEEDBACK_DIR）；lemon（LemonLime 的自定义校验器：分数写入 SCORE_FILE，消息写入 MESSAGE_FILE）
help-arg-check-reading = 规则的读法：literal、no-noop、at-most 或 no-noop+at-most
help-arg-check-any = 接受任何合法的解，不只是字典序最小的解
help-arg-check-trace = 显示每次移动前后的棋盘，以及每一步连锁消除
help-arg-check-json = 以 JSON 输出结果
help-arg-check-color = 过程中的颜色：auto（仅在终端上）、always（总是）、never（从不）

help-after-grade = 退出码：0 每个测试点 AC，1 有评测结果不是 AC，2 评测机或配置错误（包括不加 --trusted 时机器无法隔离程序）。
help-arg-grade-submissions = 源文件或可直接运行的程序；文件夹表示其中的每个源文件
help-arg-grade-contest = 比赛文件夹：每个子文件夹是一名选手（也可在 “DIR/source/” 下，即 LemonLime 的布局，或 “DIR/players/” 下，即 Arbiter 的布局），程序是 “<选手>/<stem>.<ext>” 或 “<选手>/<stem>/<stem>.<ext>”（stem：题目名）。输出排名
help-arg-grade-problem = 题目包（默认：problems/mayan，从当前文件夹向上查找，找不到时用程序内置的副本）
help-arg-grade-tests = 只评测名字匹配此通配符的测试点（如 “secret/*”、“sample/1”）
help-arg-grade-jobs = 同时进行的编译和运行数，所有提交共用（一个池：没有提交要等另一个提交的慢测试点）；“auto”：评测机可用的每个核一个。代价是计时噪声：CPU 时间按每次运行测量，但并排的运行共享缓存和内存带宽，所以每多一个任务时间略增（每核一个时增加百分之几），超过核数则增加很多。时间接近限制会决定结果时用 1；要快速评测一个班时用 “auto”（见 docs/SPEED.md）。每个核一个槽位时，每个槽位及其运行固定在各自的核上（“MAYAN_JUDGE_PIN=0”：不固定，如机器还有别的工作时）
help-arg-grade-lang = 强制指定语言（c、cpp、rust、python、exe），不自动识别
help-arg-grade-file-io = NOIP 文件输入输出：程序在自己的文件夹中读 STEM.in、写 STEM.out（只评测 STEM.out），不论题目包怎么规定
help-arg-grade-stdio = 程序读标准输入、写标准输出，不论题目包怎么规定
help-arg-grade-retry-tle = 接近限制的 TLE（在限制的 1.05 倍内结束，或计算中用完墙钟时间）最多重跑 N 次，以最后一次为准。0：每次运行到限制即停止
help-arg-grade-csv = 把每个提交在每个测试点上的得分以 CSV 写入 FILE（表头 “contestant,total,<测试点>,...”），供电子表格使用
help-arg-grade-xlsx = 把成绩以 Excel 工作簿写入 FILE（.xlsx：Excel 和 WPS 在任何语言环境下都能打开）：名次、选手、总分，然后是每个测试点的得分（#1..#N），表头用 --locale 的语言
help-arg-grade-counterexamples = 对每个 WA、PE、RE 或 TLE 的提交，搜索它出错的最小棋盘（与 “stress” 相同的搜索，不用题目包的测试点；最多 400 次运行，每次最多 10 CPU 秒），并画在 --html 报告（和 JSON 报告）中它的部分里
help-arg-grade-json = 把报告以 JSON（有版本的格式）写入 FILE
help-arg-grade-junit = 把 JUnit XML 写入 FILE，供 CI 系统使用
help-arg-grade-markdown = 把 Markdown 表格写入 FILE，可贴到 issue 或论坛中
help-arg-grade-html = 写入一个自包含的 HTML 页面到 FILE（画出棋盘，回放移动）
help-arg-grade-quiet = 不显示进度条或进度行
help-arg-grade-locale = 终端上报告和 “--html” 的语言（“en”、“zh-CN”：“locales/” 中的一个文件夹）。不给时终端上的报告跟随 LC_ALL / LC_MESSAGES / LANG（“zh_CN.UTF-8”），否则为英文
help-arg-grade-trusted = 即使这台机器无法隔离程序（不是 root、没有 mount/pid 命名空间、没有 seccomp 或 cgroups）也运行程序：只用于你自己写的程序。不加时这样的机器拒绝评测，并说明缺少什么

help-after-validate = 退出码：0 每个测试点都合法，1 发现问题，2 题目包或文件无法读取。
help-arg-validate-paths = 题目包文件夹（含 problem.toml），或输入文件及其文件夹（默认：题目包 problems/mayan，从这里向上查找）
help-arg-validate-max-n = 对题目包之外的文件：允许的最大 n
help-arg-validate-reading = 对题目包之外的文件：其答案遵循的读法
help-arg-validate-allow-sensitive = 对题目包之外的文件：允许答案取决于规则读法的测试点
help-arg-validate-json = 把报告以 JSON（有版本的格式）写入 FILE
help-arg-validate-junit = 把 JUnit XML 写入 FILE，供 CI 系统使用
help-arg-validate-markdown = 把 Markdown 表格写入 FILE，可贴到 issue 或论坛中
help-arg-validate-html = 写入一个自包含的 HTML 页面到 FILE（画出棋盘，回放移动）
help-arg-validate-quiet = 不显示进度条或进度行

help-arg-show-input = 谜题（“-” 读标准输入）
help-arg-show-moves = 要回放的移动（一个答案文件）；不给时回放字典序最小的解
help-arg-show-reading = 规则的读法：literal、no-noop、at-most 或 no-noop+at-most
help-arg-show-color = 颜色：auto（仅在终端上）、always（总是）、never（从不）

help-after-ci = 退出码：0 每项检查符合预期，1 有不符或题目包损坏，2 根目录无法读取，或不加 --trusted 时机器无法隔离程序。
help-arg-ci-root = 仓库根目录（含 problems/、testdata/、reference/）
help-arg-ci-shard = 只运行 N 份中的第 K 份（如 1/2），用于 CI 矩阵
help-arg-ci-jobs = 同时进行的运行数，所有参考程序共用（一个池）；“auto”：评测机可用的每个核一个。任务越多计时噪声越大（并排的运行共享缓存和内存带宽）：因为 ci 检查时间余量，请不超过核数（见 docs/SPEED.md）
help-arg-ci-json = 把报告以 JSON（有版本的格式）写入 FILE
help-arg-ci-junit = 把 JUnit XML 写入 FILE，供 CI 系统使用
help-arg-ci-markdown = 把 Markdown 表格写入 FILE，可贴到 issue 或论坛中
help-arg-ci-html = 写入一个自包含的 HTML 页面到 FILE（画出棋盘，回放移动）
help-arg-ci-quiet = 不显示进度条或进度行
help-arg-ci-trusted = 即使这台机器无法隔离程序（不是 root、没有 mount/pid 命名空间、没有 seccomp 或 cgroups）也运行程序：只用于你自己写的程序。不加时这样的机器拒绝评测，并说明缺少什么

help-arg-bench-official = 官方测试点的文件夹（mayanN.in）
help-arg-bench-baseline = 用来对照的 C++ 基准程序
help-arg-bench-boards = 每种规模生成多少个难棋盘
help-arg-bench-seed = 难棋盘的种子
help-arg-bench-save-boards = 把难棋盘（n = 5）写到这个文件夹，名为 “hardK.in”
help-arg-bench-memo-baseline = 五色棋盘用的带记忆化的 C++ 基准程序
help-arg-bench-family = 五色基准棋盘的文件夹（“*.in”，无解）
help-arg-bench-memory-cap = 限内存求解（最慢的 n = 8 棋盘）的内存上限
help-arg-bench-quick = 只运行 n = 5 的部分（没有 n = 8 的难棋盘，没有 n = 6 和 7 的五色棋盘，没有限内存求解）
help-arg-bench-only = 只运行一部分：“solver”（求解器）、“grader”（评测机每个测试点的额外开销）、“stress”（stress 循环的速率）、“serve”（负载下的在线评测）、“scaling”（在每个核上评测）：这两项要几分钟，所以不加 --only 时从不运行；或 “launch”（评测机占用 --hold-mib 时启动一次运行，对照什么也不占用时）
help-arg-bench-runs = 评测机额外开销测量中每边的运行次数（“--only launch” 和 “--only scaling” 的启动部分：每种路径和大小的运行次数，scaling 中最多 60）
help-arg-bench-contestants = “--only serve”：提交的选手数；“--only analysis”：班里的选手数
help-arg-bench-submissions = “--only serve”：一次突发中的提交数，平均分给各选手（每人最多 10 个：默认的提交频率限制）（默认：1000）；“--only analysis”：班里已评测的提交数（默认：2000）；“--only search”：搜索的出错提交数（默认：4）；“--only contest-scale”：测量的最大比赛（默认：20000）
help-arg-bench-no-counterexamples = “--only serve”：服务器不为出错的提交搜索反例（contest.toml 的 “[counterexamples] search = false”），用来与开启搜索（默认）时的突发吞吐量比较
help-arg-bench-cpp = “--only serve”：程序是以 “#include <bits/stdc++.h>” 开头的 C++，和 NOIP 班级写的一样（编译占主要时间；“MAYAN_JUDGE_PCH=0” 时服务器编译它们不用预编译头）
help-arg-bench-clients = “--only serve”：并发提交的客户端数
help-arg-bench-jobs = “--only serve”：服务器的 --jobs；“--only scaling”：测量的最大 --jobs（默认：评测机可用的核数）；“--only compile”：grade 的 --jobs（默认：2）
help-arg-bench-class = “--only scaling” 和 “--only compile”：被评测的班级的程序数
help-arg-bench-burst = “--only scaling”：服务器评测的每次突发中的提交数（越多，开头和结尾的影响越小）
help-arg-bench-tests = “--only serve”：只用内置题目的前 N 个测试点评测（默认：“serve” 找到的题目包的每个测试点）；“--only scaling”：用它们评测班级（突发中最多 10 个）
help-arg-bench-idle-secs = “--only serve”：空闲基线的秒数（突发之前，空闲服务器上的页面和 API）
help-arg-bench-quiet = 不显示进度（“--only serve”）
help-arg-bench-hold-mib = “--only launch”（和 scaling 的启动部分）：第二组运行之前评测机占用的堆内存 MiB 数（评测机占用这么多时启动一次运行的代价，对照什么也不占用时）

help-after-similar =
    程序被解析（C、C++、Python、Rust）成同一套记号，所以改名、重新排版、调换函数顺序以及换一种语言重写都藏不住抄袭；全班大多数程序共有的代码几乎不计分。无法读取的文件（不是文本、超过 1 MiB、语言未知）会在标准错误上列出，其余照常比较。原理及 JSON 格式：docs/SIMILAR.md。

    退出码：0 没有程序对的相似度达到阈值（--threshold，或班级自己的阈值），1 有程序对达到阈值，2 可比较的程序不到两个，或选项错误。
help-arg-similar-sources = 要比较的程序：文件或文件夹（其中每个 .c .cpp .cc .py .rs 文件各算一个程序）
help-arg-similar-contest = 比赛文件夹，按 “grade --contest” 的方式读取（每名选手一个子文件夹，也可在 source/ 或 players/ 下）：每名选手一个程序
help-arg-similar-stem = 与 --contest 一起：题目的文件名主干（“<选手>/<stem>.<ext>”）
help-arg-similar-template = 老师发下的代码：从不算作共有
help-arg-similar-reference = 公开的题解或往年班级的程序：与各程序比较，但彼此之间不比较（可重复）
help-arg-similar-language = 扩展名看不出语言的文件所用的语言（c、cpp、python、rust）
help-arg-similar-threshold = 相似度（0 到 1）达到此值的程序对被标出并分组（默认：由班级决定，高出其相似度中位数 --spreads 个离散度）
help-arg-similar-spreads = 不给 --threshold 时：相似度高出班级中位数这么多个离散度（稳健标准差）的程序对被标出（阈值保持在 0.5 到 0.55 之间）
help-arg-similar-common-share = 在至少这个比例的程序中出现的片段不计分
help-arg-similar-top = 终端上（以及 --html 中，连同每个被标出的程序对）显示的程序对数
help-arg-similar-json = 把每个程序对及匹配的行范围以 JSON 写出（格式：docs/SIMILAR.md）
help-arg-similar-csv = 把程序对以 CSV 写出，供电子表格使用
help-arg-similar-html = 写入一个自包含的 HTML 页面：程序对并排显示
help-arg-similar-jobs = 工作线程数（默认：机器的核数）
help-arg-similar-quiet = 不显示进度

help-after-gen =
    有解的谜题从空棋盘倒推生成，所以可以有很多方块；存储的答案是求解器的（字典序最小的解，literal 规则）。

    退出码：0 成功，2 配置错误（没有棋盘能满足的要求、已存在的文件，或在有限次尝试内没有找到测试点）。
help-arg-gen-seed = 种子：相同的种子和选项生成相同的文件
help-arg-gen-count = 测试点个数
help-arg-gen-n = 每个谜题的步数：“N”，或每个谜题各自选取的范围 “A..B”（包含两端）；最多 8（超过 5 时，题目包的 “max_n” 必须允许）
help-arg-gen-blocks = 每个谜题的方块数：“B” 表示至少 B 个，“A..B” 表示 A 到 B 个（默认：3n..6n；加 --impossible 时 20..35；加 --bottom 时 3..5）
help-arg-gen-colours = 最多这么多种颜色（1..10）；加 --per-colour 时恰好这么多种
help-arg-gen-per-colour = 每种颜色的方块数：“K”，或每种颜色各自选取的范围 “A..B”（至少 3）。“--colours 5 --per-colour 6..7” 生成求解器最难的一类：五种颜色，每种六或七块
help-arg-gen-impossible = 在任何读法下都无解的谜题，每种颜色至少三块（使简单的剪枝无法判定）
help-arg-gen-bottom = 每个方块都在最底行（比赛 30% 的子任务，最多 5 块），随机放置：有解或无解，除非加 --impossible。官方的这类测试点只有一种颜色，n = 1 或 2：“--colours 1 --n 1..2”
help-arg-gen-allow-sensitive = 保留答案取决于规则读法的测试点
help-arg-gen-out = 测试点所在的文件夹（不存在时创建）
help-arg-gen-prefix = 文件名：PREFIX1.in、PREFIX1.ans 等（默认：gen-<seed>-）
help-arg-gen-force = 覆盖已有的文件
help-arg-gen-quiet = 不显示进度条或进度行

help-after-export =
    题目包先在 OUT_DIR 旁的临时文件夹中生成，完成后再改名到位，所以失败时什么也不留下。对于 Kattis，文件夹名就是题目 ID（a-z、0-9）。

    退出码：0 已写出，2 拒绝（OUT_DIR 不为空且没有 --force、读法不是 literal、没有题面、有不合法的测试点）或失败。
help-arg-export-format = 要写出的格式
help-arg-export-package = 题目包文件夹（含 problem.toml 和 statement.md）
help-arg-export-out = 要写出的文件夹（不存在时创建；对于 Kattis，它的名字就是题目 ID，如 “mayan”）
help-arg-export-force = OUT_DIR 不为空时替换它
help-arg-export-source = 题目的来源（仅 Kattis：“source”），如 "NOIP 2011"
help-arg-export-license = 题面的许可证（仅 Kattis：“license”）
help-arg-export-rights-owner = 版权所有者（仅 Kattis：“rights_owner”）
help-arg-export-testlib = 随编译好的 C++ 校验器一起提供的 testlib.h，经桥接使用（仅 DMOJ；不给时校验器是 checker.py，作为模块在 DMOJ 的评测进程中运行，对 DMOJ 开销更小）

help-after-stress =
    第 i 个棋盘只由（seed，i）生成，从几块逐渐增长到 --max-blocks；一半是倒推生成的，使大棋盘也有解。报告的失败是编号最小的出错棋盘，在以同样结果出错的前提下缩到最小。

    退出码：0 在预算内没有出错，1 找到出错的棋盘，2 评测机或配置错误（包括提交无法编译或缺少编译器）。
help-arg-stress-submission = 源文件（或可直接运行的程序）
help-arg-stress-seed = 种子：相同的种子生成相同的棋盘，不论 “--jobs” 是多少
help-arg-stress-count = 运行这么多个棋盘后停止（默认：10000，除非给了 --time）
help-arg-stress-time = 这么多秒之后不再开始新的棋盘
help-arg-stress-max-blocks = 棋盘上最多的方块数；棋盘逐渐增长到它（1..35）
help-arg-stress-n = 每个谜题的步数：“N”，或每个棋盘各自选取的范围 “A..B”
help-arg-stress-jobs = 同时运行的棋盘数；“auto”（默认）：评测机可用的每个核一个。任务多于核数只会增加计时噪声（接近 --time-limit 的运行可能变成 TLE）；少于核数则有核空闲
help-arg-stress-time-limit = 每次运行的 CPU 时间限制，单位为毫秒
help-arg-stress-reading = 规则的读法：literal、no-noop、at-most 或 no-noop+at-most
help-arg-stress-lang = 强制指定语言（c、cpp、rust、python、exe），不自动识别
help-arg-stress-save = 把缩小后的棋盘作为测试点（“stress-<seed>-<board>.in” / “.ans”）写入 DIR
help-arg-stress-html = 把缩小后的失败写成 HTML 报告到 FILE
help-arg-stress-file-io = NOIP 文件输入输出：程序在自己的文件夹中读 STEM.in、写 STEM.out（只评测 STEM.out），而不是标准输入和标准输出
help-arg-stress-shrink-runs = 缩小时最多运行提交的次数
help-arg-stress-shrink-time = 缩小时最多花费的秒数
help-arg-stress-quiet = 不显示进度条或进度行
help-arg-stress-trusted = 即使这台机器无法隔离程序（不是 root、没有 mount/pid 命名空间、没有 seccomp 或 cgroups）也运行程序：只用于你自己写的程序。不加时这样的机器拒绝评测，并说明缺少什么

help-after-doctor =
    每项检查一行：PASS、WARN 或 FAIL，检查名，发现了什么，WARN 和 FAIL 还给出修复的命令。只有缺少保护措施才是 FAIL；计时噪声（SMT、CPU 调频策略、睿频、透明大页、管道形式的 core pattern）最多是 WARN。

    退出码：0 没有检查 FAIL（沙箱具备所需的每项保护），1 有检查 FAIL，2 错误。
help-arg-doctor-json = 以 JSON 输出各项检查：一个数组，每项含 name、level、found、fix
help-arg-doctor-color = 级别的颜色：auto（仅在终端上）、always（总是）、never（从不）

help-after-serve =
    比赛保存在一个 SQLite 数据库中（--db，默认是 contest.toml 旁或当前文件夹中的 mayan-judge.db）：在同一个数据库上重启会继续同一场比赛，提交只有写入磁盘后才会确认。生成的密码只输出一次，并写入 contest.toml 旁的 passwords.csv（权限 0600）。“serve --dry-run” 输出启动会对选手做的改动后退出；“serve backup COPY” 写出数据库的一致副本（不论是否有服务器在用它），而不是启动服务。见 docs/SERVE.md。

    退出码：0 被 Ctrl-C 或 SIGTERM 停止（或已输出预演、已写出备份），2 配置错误（contest.toml、题目包、数据库、地址、不加 --trusted 时机器无法隔离程序、备份文件已存在）。
help-arg-serve-listen = 监听的地址：教室局域网用 0.0.0.0:8080；端口 0 自动选一个空闲端口
help-arg-serve-contest = 比赛文件（见 docs/SERVE.md）；不给时是没有选手的公开练习（老师无法添加选手：请给出比赛文件）
help-arg-serve-problem = 题目包文件夹（默认：contest.toml 的 “problem”，否则按 “grade” 的方式查找）
help-arg-serve-db = 数据库文件（不存在时创建）
help-arg-serve-jobs = 同时进行的编译和运行数，所有提交共用（一个槽位池）；“auto”（默认）：评测机可用的每个核一个（遵守它的 CPU 亲和性和 cgroup 的 cpu.max）。每个核一个槽位时，每个槽位及其运行固定在各自的核上（“MAYAN_JUDGE_PIN=0”：不固定，如机器还有别的工作时）
help-arg-serve-tls-cert = HTTPS：证书链（PEM）；与 --tls-key 一起使用
help-arg-serve-tls-key = HTTPS：私钥（PEM）；与 --tls-cert 一起使用
help-arg-serve-behind-proxy = 位于终结 HTTPS 的反向代理之后：Cookie 标记为 Secure，客户端地址从 X-Forwarded-For 读取
help-arg-serve-rate-address = 未登录时每个地址每秒的请求数（登录另行限速：按用户名和地址）；突发可达五倍：一个共用地址的班级可以同时打开登录页
help-arg-serve-rate-user = 每个已登录用户每秒的请求数；突发可达五倍
help-arg-serve-rate-submit = 每名选手每分钟的提交数（突发也是这么多）
help-arg-serve-connections = 总共最多保持的连接数；超过时新连接立即得到 503（默认：打开文件数的限制，提高到其硬限制，再减去留给评测的 128）
help-arg-serve-connections-per-address = 一个地址在已登录请求到来之前最多保持的连接数（登录后每个连接计入其账户：最多 32），不超过 --connections（默认：--connections 的四分之一）。加 --behind-proxy 时不适用，因为连接都来自代理
help-arg-serve-quiet = 只输出错误
help-arg-serve-dry-run = 输出启动会对选手做的改动（新增、显示名、密码；不会删除任何人）后退出，不启动服务
help-arg-serve-trusted = 即使这台机器无法隔离程序（不是 root、没有 mount/pid 命名空间、没有 seccomp 或 cgroups）也运行程序：只用于你自己写的程序。不加时这样的机器拒绝评测，并说明缺少什么
help-arg-backup-copy = 副本文件（必须不存在）
