no-program-missing = 没有程序：{$folder}/ 和 {$folder}/{$stem}/ 中都没有 {$stem}.<扩展名>
no-program-missing-near = 没有程序：{$folder}/ 和 {$folder}/{$stem}/ 中都没有 {$stem}.<扩展名>（找到了 {$near}：文件名必须是 {$stem}.<扩展名>）
no-program-several = 有 {$n} 个程序：{$files}；只能保留一个
no-program-link = {$file} 是符号链接（不会跟随）
no-program-no-submission = 没有提交
no-program-short = 没有程序
no-program-several-short = {$n} 个程序

layout-plain = 每位选手一个文件夹
layout-lemonlime = LemonLime 目录结构：source/<选手>/
layout-arbiter = Arbiter 目录结构：players/<选手>/
contest-folder = {$dir}（{$layout}）
contestant-note = {$name}：{$why}
counts-judge-error = FAIL（评测机错误）
list-separator = ，

roster-add = 添加 {$name}{$generated}
roster-add-as = 添加 {$name}（{$display}）{$generated}
roster-generated = （密码已生成）
roster-display = {$name}：显示名“{$old}”改为“{$new}”
roster-password = {$name}：改用文件中的新密码
roster-keep = 保留 {$name}（已不在文件中：不会删除任何人；如需从排名中去掉，请取消其资格）
roster-no-change = 选手名单没有变化

sandbox-isolation = 私有根目录与独立命名空间
sandbox-uid-per-run = 每次运行使用独立的 uid
sandbox-seccomp = seccomp 系统调用黑名单
sandbox-landlock = Landlock 文件访问规则
sandbox-cgroup = cgroup 资源限制
sandbox-drop = 以无特权用户运行
sandbox-namespaces = 独立的网络与 IPC 命名空间
sandbox-rlimits = rlimit 资源限制
sandbox-no-process-limit = 【未限制进程数：以 root 运行且没有 pids cgroup】

judge-missing-tool = 评测机没有安装 {$language} 的{$what} {$name}（PATH 中找不到）
judge-tool-compiler = 编译器
judge-tool-interpreter = 解释器
