// Reads whitespace-separated non-negative numbers to the end of its input and prints their sum: a program whose
// time is all reading, for the cost of a large input given through the judge against the same program alone.
#include <stdio.h>
#include <unistd.h>

int main(void) {
    static char buffer[1 << 16];
    unsigned long long sum = 0, number = 0;
    ssize_t length;
    while ((length = read(0, buffer, sizeof buffer)) > 0) {
        for (ssize_t i = 0; i < length; i++) {
            char c = buffer[i];
            if (c >= '0' && c <= '9') {
                number = number * 10 + (c - '0');
            } else {
                sum += number;
                number = 0;
            }
        }
    }
    printf("%llu\n", sum + number);
    return length < 0;
}
