# Wrong on purpose: reads each reply as two numbers, as if the judge told the
# row and column offsets to the knight, while it sends only the distance. The
# unpacking of the first reply fails, and the program dies with a ValueError.
import sys


def main():
    x, y = 0, 0
    while True:
        print("?", x, y, flush=True)
        dx, dy = map(int, sys.stdin.readline().split())
        if dx == 0 and dy == 0:
            print("!", x, y, flush=True)
            return
        x, y = x + dx, y + dy


main()
