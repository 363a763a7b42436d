# Validator: exit 0 on a valid input, else exit 1 with one line on stderr, "line N: what is wrong". On a valid
# input it reports on stdout what `cpjudge validate` sums up over the tests: "value NAME V MIN MAX" for each
# bounded value, "case NAME yes|no" for each special case, so that you see which bounds the tests reach.
# It checks the placeholder format (one line "A B", integers within +-10^9, nothing else): replace the checks
# in `main` with your problem's format, keeping the input strict (single spaces, one newline at the end).
import re
import sys

LIMIT = 10**9


def reject(line, what):
    print(f"line {line}: {what}", file=sys.stderr)
    sys.exit(1)


# A canonical decimal integer within -LIMIT..=LIMIT: no '+', no leading zeros, no "-0".
def integer(line, token):
    if not re.fullmatch(r"-?(0|[1-9][0-9]*)", token) or token == "-0":
        reject(line, f"{token!r} is not an integer")
    value = int(token)
    if not -LIMIT <= value <= LIMIT:
        reject(line, f"{token} is out of range -{LIMIT}..={LIMIT}")
    return value


def main():
    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        reject(1, "the input is not UTF-8")
    if not text.endswith("\n"):
        reject(max(text.count("\n") + 1, 1), "the input does not end with a newline")
    lines = text[:-1].split("\n")
    # Line 1: "A B".
    tokens = lines[0].split(" ")
    if len(tokens) != 2:
        reject(1, f"expected 2 integers separated by one space, found {lines[0]!r}")
    a = integer(1, tokens[0])
    b = integer(1, tokens[1])
    if len(lines) > 1:
        reject(2, "expected the end of the input")
    print(f"value a {a} -{LIMIT} {LIMIT}")
    print(f"value b {b} -{LIMIT} {LIMIT}")
    print(f"case negative_sum {'yes' if a + b < 0 else 'no'}")


main()
