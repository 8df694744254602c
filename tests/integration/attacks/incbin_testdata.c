/* Attack: embed the test data in the program at compile time. The
 * assembler's `.incbin` copies every secret test's input and answer (from
 * the judge's own test folder, which a contestant can guess) into the
 * program, which looks its stdin up in that table and prints the answer.
 * Success: the stdin matched an embedded input (answer printed): exit 42.
 * If the files cannot be read the program does not compile (attack failed). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#define EMBED(name, file) \
    __asm__(".section .rodata\n.global " name "\n" name ":\n.incbin \"" file "\"\n.byte 0\n.previous\n")
EMBED("mj_in_11", "@TESTDATA_DIR@/secret/11.in");
EMBED("mj_ans_11", "@TESTDATA_DIR@/secret/11.ans");
EMBED("mj_in_12", "@TESTDATA_DIR@/secret/12.in");
EMBED("mj_ans_12", "@TESTDATA_DIR@/secret/12.ans");
EMBED("mj_in_13", "@TESTDATA_DIR@/secret/13.in");
EMBED("mj_ans_13", "@TESTDATA_DIR@/secret/13.ans");
extern const char mj_in_11[], mj_ans_11[], mj_in_12[], mj_ans_12[], mj_in_13[], mj_ans_13[];
int main(void) {
    static char input[1 << 16];
    size_t len = fread(input, 1, sizeof input - 1, stdin);
    input[len] = 0;
    const char *ins[] = {mj_in_11, mj_in_12, mj_in_13};
    const char *answers[] = {mj_ans_11, mj_ans_12, mj_ans_13};
    for (int i = 0; i < 3; i++)
        if (strcmp(ins[i], input) == 0) {
            fputs(answers[i], stdout);
            return 42;
        }
    /* The other tests: the table was still read, which is the breach. */
    return strlen(mj_in_11) > 0 ? 42 : (puts("-1"), 0);
}
