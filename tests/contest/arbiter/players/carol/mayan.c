#include <stdio.h>
int main(void) {
    int n
    scanf("%d", &n);
    return 0;
}
