/* Attack: change the execution domain: personality(ADDR_NO_RANDOMIZE)
 * turns off address space randomisation for the program and its children
 * (READ_IMPLIES_EXEC makes data executable), which helps exploits.
 * Success: the new personality took effect: exit 42. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/personality.h>
int main(void) {
    int before = personality(0xffffffff);
    if (personality(before | ADDR_NO_RANDOMIZE) != -1 &&
        (personality(0xffffffff) & ADDR_NO_RANDOMIZE) && !(before & ADDR_NO_RANDOMIZE))
        return 42;
    if (personality(READ_IMPLIES_EXEC) != -1 && (personality(0xffffffff) & READ_IMPLIES_EXEC))
        return 42;
    puts("-1");
    return 0;
}
