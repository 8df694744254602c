/* Attack: read a root-only file at compile time. `#include` a file that
 * only root can read (mode 0600 in a 0700 folder, created by the test);
 * the compiler's error message quotes the lines it included.
 * Success: the secret token appears anywhere in the judge's output or JSON
 * report (checked by the test). The attack failed if the compiler could
 * not open the file. */
#define _GNU_SOURCE
#include "@SECRET_PATH@"
#include <stdio.h>
int main(void) { puts("-1"); return 0; }
