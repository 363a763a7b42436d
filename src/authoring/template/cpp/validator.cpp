// Validator: exit 0 on a valid input, else exit 1 with one line on stderr, "line N: what is wrong". On a valid
// input it reports on stdout what `cpjudge validate` sums up over the tests: "value NAME V MIN MAX" for each
// bounded value, "case NAME yes|no" for each special case, so that you see which bounds the tests reach.
// It checks the placeholder format (one line "A B", integers within +-10^9, nothing else): replace the checks
// in `main` with your problem's format, keeping the input strict (single spaces, one newline at the end).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

const long long LIMIT = 1000000000;

[[noreturn]] void reject(std::size_t line, const std::string& what) {
    std::cerr << "line " << line << ": " << what << '\n';
    std::exit(1);
}

// A canonical decimal integer within -LIMIT..=LIMIT: no '+', no leading zeros, no "-0".
long long integer(std::size_t line, const std::string& token) {
    std::string digits = token.size() > 0 && token[0] == '-' ? token.substr(1) : token;
    bool canonical = !digits.empty() && digits.size() <= 18 && token != "-0" &&
                     (digits == "0" || digits[0] != '0');
    for (char c : digits) canonical = canonical && c >= '0' && c <= '9';
    if (!canonical) reject(line, "\"" + token + "\" is not an integer");
    long long value = std::stoll(token);
    if (value < -LIMIT || value > LIMIT)
        reject(line, token + " is out of range -" + std::to_string(LIMIT) + "..=" + std::to_string(LIMIT));
    return value;
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts(1);
    for (char c : text) {
        if (c == separator) parts.emplace_back();
        else parts.back() += c;
    }
    return parts;
}

int main() {
    std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (input.empty() || input.back() != '\n') {
        std::size_t lines = 1;
        for (char c : input) lines += c == '\n';
        reject(lines, "the input does not end with a newline");
    }
    std::vector<std::string> lines = split(input.substr(0, input.size() - 1), '\n');
    // Line 1: "A B".
    std::vector<std::string> tokens = split(lines[0], ' ');
    if (tokens.size() != 2)
        reject(1, "expected 2 integers separated by one space, found \"" + lines[0] + "\"");
    long long a = integer(1, tokens[0]);
    long long b = integer(1, tokens[1]);
    if (lines.size() > 1) reject(2, "expected the end of the input");
    std::printf("value a %lld %lld %lld\n", a, -LIMIT, LIMIT);
    std::printf("value b %lld %lld %lld\n", b, -LIMIT, LIMIT);
    std::printf("case negative_sum %s\n", a + b < 0 ? "yes" : "no");
}
