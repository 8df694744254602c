language-name = 中文
date-time = {$year}年{$month}月{$day}日 {$time}

verdict-AC = 答案正确
verdict-WA = 答案错误
verdict-PE = 格式错误
verdict-NOF = 找不到输出文件
verdict-TLE = 超出时间限制
verdict-MLE = 超出内存限制
verdict-OLE = 输出超限
verdict-RE = 运行时错误
verdict-CE = 编译错误
verdict-FAIL = 评测机错误
