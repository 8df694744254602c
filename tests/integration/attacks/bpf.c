/* Attack: load eBPF (kernel attack surface): bpf(BPF_MAP_CREATE) an array
 * map, and bpf(BPF_PROG_LOAD) a two-instruction socket filter.
 * Success: either call returned a file descriptor: exit 42. */
#define _GNU_SOURCE
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void) {
    union bpf_attr a;
    memset(&a, 0, sizeof a);
    a.map_type = BPF_MAP_TYPE_ARRAY;
    a.key_size = 4;
    a.value_size = 4;
    a.max_entries = 1;
    if (syscall(SYS_bpf, BPF_MAP_CREATE, &a, sizeof a) >= 0) return 42;
    struct bpf_insn prog[2];
    memset(prog, 0, sizeof prog);
    prog[0].code = BPF_ALU64 | BPF_MOV | BPF_K; /* r0 = 0 */
    prog[1].code = BPF_JMP | BPF_EXIT;
    memset(&a, 0, sizeof a);
    a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
    a.insns = (unsigned long)prog;
    a.insn_cnt = 2;
    a.license = (unsigned long)"GPL";
    if (syscall(SYS_bpf, BPF_PROG_LOAD, &a, sizeof a) >= 0) return 42;
    puts("-1");
    return 0;
}
