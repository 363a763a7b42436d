// Prints one gigabyte and ends: the judge must stream it to disk and compare it without holding it in memory.
#include <stdio.h>
#include <string.h>

int main(void) {
    static char block[1 << 20];
    memset(block, 'a', sizeof block);
    for (int i = 0; i < 1024; i++) fwrite(block, 1, sizeof block, stdout);
    return 0;
}
