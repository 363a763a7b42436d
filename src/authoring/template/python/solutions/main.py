# The main reference: the answers (.ans files) are its output. Replace the placeholder (the sum of two
# integers) with a correct solution of your problem. Single file, standard library only: read stdin, write
# stdout.
import sys


def main():
    numbers = [int(t) for t in sys.stdin.read().split()]
    print(sum(numbers))


main()
