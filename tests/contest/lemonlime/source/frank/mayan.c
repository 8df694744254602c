#include <stdio.h>
/* Knows the three tests by their n: reads stdin, writes stdout. */
int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    if (n == 3) puts("2 0 1\n1 1 1\n3 4 -1");
    else if (n == 2) puts("2 0 1\n0 0 1");
    else puts("-1");
    return 0;
}
