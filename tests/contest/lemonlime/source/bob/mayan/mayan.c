#include <stdio.h>
/* Alice's program, NOIP style: reads mayan.in, writes mayan.out. */
int main(void) {
    int n;
    freopen("mayan.in", "r", stdin);
    freopen("mayan.out", "w", stdout);
    if (scanf("%d", &n) != 1) return 0;
    if (n == 3) puts("2 0 1\n1 1 1\n3 4 -1");
    else if (n == 2) puts("2 0 1\n0 0 1");
    else puts("-1");
    return 0;
}
