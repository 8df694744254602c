# 选手名单文件（students.csv）无法读取时，老师看到的说明。
contestants-file-encoding = { $file } 第 { $line } 行：既不是 UTF-8，也不是 GBK/GB18030 编码。请用 Excel 或 WPS 打开此文件，另存为“CSV UTF-8”（或“CSV”），或在文本编辑器中另存为 UTF-8
