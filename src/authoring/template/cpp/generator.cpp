// Test generator: `generator MODE ARGS... SEED` prints one input on stdout. The same arguments always give the
// same input, so testdata/<problem>/recipe.toml can rebuild every generated test. Replace the placeholder
// modes with your problem's, one per kind of test (random, extreme values, worst cases for slow solutions).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

const long long LIMIT = 1000000000;

const char* USAGE =
    "usage: generator MODE SEED\n"
    "  MODE  random   two integers anywhere in -10^9..=10^9\n"
    "        max      the largest values (their sum is near 2 x 10^9)\n"
    "  SEED  any unsigned 64-bit integer\n";

// splitmix64: tiny, and the same stream on every platform for a given seed (unlike std::mt19937's
// distributions, whose results differ between standard libraries).
struct Rng {
    std::uint64_t state;

    std::uint64_t next() {
        state += 0x9E3779B97F4A7C15ULL;
        std::uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

    // Uniform enough in lo..=hi for tests.
    long long between(long long lo, long long hi) {
        return lo + (long long)(next() % (std::uint64_t)(hi - lo + 1));
    }
};

[[noreturn]] void fail() {
    std::fputs(USAGE, stderr);
    std::exit(2);
}

int main(int argc, char** argv) {
    if (argc != 3) fail();
    std::string mode = argv[1], seed = argv[2];
    if (seed.empty() || seed.size() > 20 || seed.find_first_not_of("0123456789") != std::string::npos) fail();
    Rng rng{std::strtoull(seed.c_str(), nullptr, 10)};
    long long a, b;
    if (mode == "random") {
        a = rng.between(-LIMIT, LIMIT);
        b = rng.between(-LIMIT, LIMIT);
    } else if (mode == "max") {
        a = LIMIT;
        b = LIMIT - rng.between(0, 10);
    } else {
        fail();
    }
    std::printf("%lld %lld\n", a, b);
}
