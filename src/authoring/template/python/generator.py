# Test generator: `generator MODE ARGS... SEED` prints one input on stdout. The same arguments always give the
# same input, so testdata/<problem>/recipe.toml can rebuild every generated test. Replace the placeholder
# modes with your problem's, one per kind of test (random, extreme values, worst cases for slow solutions).
import sys

LIMIT = 10**9

USAGE = """usage: generator MODE SEED
  MODE  random   two integers anywhere in -10^9..=10^9
        max      the largest values (their sum is near 2 x 10^9)
  SEED  any unsigned 64-bit integer"""

MASK = (1 << 64) - 1


# splitmix64: tiny, and the same stream on every platform and Python version for a given seed (the `random`
# module promises no such thing across versions).
class Rng:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    # Uniform enough in lo..=hi for tests.
    def between(self, lo, hi):
        return lo + self.next() % (hi - lo + 1)


def fail():
    print(USAGE, file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) != 3 or not sys.argv[2].isascii() or not sys.argv[2].isdigit():
        fail()
    mode, seed = sys.argv[1], int(sys.argv[2])
    if seed > MASK:
        fail()
    rng = Rng(seed)
    if mode == "random":
        a, b = rng.between(-LIMIT, LIMIT), rng.between(-LIMIT, LIMIT)
    elif mode == "max":
        a, b = LIMIT, LIMIT - rng.between(0, 10)
    else:
        fail()
    print(a, b)


main()
