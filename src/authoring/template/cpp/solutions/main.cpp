// The main reference: the answers (.ans files) are its output. Replace the placeholder (the sum of two
// integers) with a correct solution of your problem. Single file, standard library only: read stdin, write
// stdout.
#include <iostream>

int main() {
    std::ios::sync_with_stdio(false);
    long long sum = 0, x;
    while (std::cin >> x) sum += x;
    std::cout << sum << '\n';
}
