# The contestants' file (students.csv): what the teacher reads when it cannot be read.
contestants-file-encoding = { $file }:{ $line }: neither UTF-8 nor GBK/GB18030: open the file in Excel or WPS and save it again as "CSV UTF-8" (or "CSV"), or as UTF-8 from a text editor
