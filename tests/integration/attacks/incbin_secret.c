/* Attack: read a root-only file at compile time with the assembler:
 * `.incbin` embeds the file's bytes in the program, which prints them (the
 * checker then quotes them as a bad token, and the report's diff shows them).
 * Success: the secret token appears anywhere in the judge's output or JSON
 * report (checked by the test). If the file cannot be read the program
 * does not compile (the attack failed). */
#define _GNU_SOURCE
#include <stdio.h>
__asm__(".section .rodata\n"
        ".global mj_secret_start\nmj_secret_start:\n"
        ".incbin \"@SECRET_PATH@\"\n"
        ".global mj_secret_end\nmj_secret_end:\n"
        ".byte 0\n"
        ".previous\n");
extern const char mj_secret_start[], mj_secret_end[];
int main(void) {
    size_t n = (size_t)(mj_secret_end - mj_secret_start);
    if (n == 0) { puts("-1"); return 0; }
    fwrite(mj_secret_start, 1, n, stdout);
    return 0;
}
