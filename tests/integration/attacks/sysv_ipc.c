/* Attack: share state with concurrent runs through System V IPC (shared
 * memory and message queues with a fixed key). The
 * first run creates them and waits up to 1 s; runs of other tests,
 * graded at the same time, find them.
 * Success: an object made by another run was found: exit 42. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/shm.h>
#include <time.h>
#include <unistd.h>

static key_t key_of(const char *s) {
    unsigned h = 5381;
    while (*s) h = h * 33 + (unsigned char)*s++;
    return (key_t)(h & 0x7fffffff);
}

int main(void) {
    key_t key = key_of("@TOKEN@");
    int shm = shmget(key, 4096, IPC_CREAT | IPC_EXCL | 0666);
    if (shm < 0 && errno == EEXIST) return 42;
    int msq = msgget(key, IPC_CREAT | IPC_EXCL | 0666);
    if (msq < 0 && errno == EEXIST) return 42;
    struct timespec start, t;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int seen = 0;
    do {
        usleep(20000);
        /* Someone removed and re-created ours, or created the other one. */
        if (shm < 0 && shmget(key, 0, 0) >= 0) seen = 1;
        if (msq < 0 && msgget(key, 0) >= 0) seen = 1;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while (!seen && (t.tv_sec - start.tv_sec) * 1000 + (t.tv_nsec - start.tv_nsec) / 1000000 < 1000);
    if (shm >= 0) shmctl(shm, IPC_RMID, 0);
    if (msq >= 0) msgctl(msq, IPC_RMID, 0);
    if (seen) return 42;
    puts("-1");
    return 0;
}
