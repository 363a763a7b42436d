// Reads a number of rounds and spends CPU time on them (a fixed amount of work, about 1 ms per 1000 rounds on a
// recent machine), then prints "ok". For the benchmarks: the same work timed by the judge and by the kernel outside
// it. (A loop on the process's own CPU clock would not do: with a CPU time limit set, as every judge sets one, the
// kernel updates that clock only now and then, and the loop would overshoot by up to a scheduler tick.)
#include <stdio.h>

int main(void) {
    long rounds;
    if (scanf("%ld", &rounds) != 1) return 1;
    volatile unsigned long sink = 0;
    for (long r = 0; r < rounds; r++) {
        for (int i = 0; i < 1000; i++) sink += i;
    }
    puts("ok");
    return 0;
}
