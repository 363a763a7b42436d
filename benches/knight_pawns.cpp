// Knight and pawns in C++, for the benchmarks: BFS distances from the knight and from every pawn, then a
// memoised minimax over (square the knight stands on, pawns left). The same approach as memo_minimax.rs.
#include <cstdio>
#include <cstring>
#include <vector>

static const int SIDE = 50;
static const int JUMPS[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

static std::vector<int> bfs(int sx, int sy) {
    std::vector<int> dist(SIDE * SIDE, -1);
    std::vector<int> queue;
    queue.reserve(SIDE * SIDE);
    dist[sx * SIDE + sy] = 0;
    queue.push_back(sx * SIDE + sy);
    for (size_t head = 0; head < queue.size(); head++) {
        int x = queue[head] / SIDE, y = queue[head] % SIDE;
        for (const auto &j : JUMPS) {
            int nx = x + j[0], ny = y + j[1];
            if (nx < 0 || ny < 0 || nx >= SIDE || ny >= SIDE || dist[nx * SIDE + ny] >= 0) continue;
            dist[nx * SIDE + ny] = dist[x * SIDE + y] + 1;
            queue.push_back(nx * SIDE + ny);
        }
    }
    return dist;
}

static int n;
static int dist[16][16];  // dist[a][b]: moves from square a (pawns 0..n-1, the knight n) to pawn b
static std::vector<int> memo;

// Best total from the knight on `at` with `left` pawns still on the board; Alice moves when `alice`.
static int solve(int at, int left, bool alice) {
    if (left == 0) return 0;
    int &slot = memo[(at << n) | left];
    if (slot >= 0) return slot;
    int best = alice ? -1 : 1 << 30;
    for (int p = 0; p < n; p++) {
        if (!(left >> p & 1)) continue;
        int total = dist[at][p] + solve(p, left & ~(1 << p), !alice);
        best = alice ? (total > best ? total : best) : (total < best ? total : best);
    }
    return slot = best;
}

int main() {
    int kx, ky;
    if (scanf("%d %d %d", &kx, &ky, &n) != 3) return 1;
    std::vector<int> px(n), py(n);
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &px[i], &py[i]) != 2) return 1;
    for (int a = 0; a <= n; a++) {
        std::vector<int> d = a < n ? bfs(px[a], py[a]) : bfs(kx, ky);
        for (int b = 0; b < n; b++) dist[a][b] = d[px[b] * SIDE + py[b]];
    }
    memo.assign((size_t)(n + 1) << n, -1);
    // Who moves is fixed by how many pawns are left, so it need not be part of the state.
    printf("%d\n", solve(n, (1 << n) - 1, true));
    return 0;
}
