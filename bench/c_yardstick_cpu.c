/* CPU-time driver for the C playout yardstick (bench/report.py --c-reference): the reference
 * source is compiled in unchanged (-DYARDSTICK='"PATH/playout_limit.c"'); only the clock
 * differs. Its own harness times wall-clock seconds, which on a shared machine counts the time
 * other processes hold the core; this one reads the process's CPU time, as the stich rows do.
 *
 *     gcc -O2 -DYARDSTICK='"../shared/reference/playout_limit.c"' -o c_cpu bench/c_yardstick_cpu.c -lpthread
 *     ./c_cpu 200000        # deals per mode; prints JSON: CPU ns per card of each deal+play mode
 */
#define main yardstick_main
#include YARDSTICK
#undef main

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 200000;
    uint64_t rng = 0x9E3779B97F4A7C15ULL, sum_sk = 0, sum_dk = 0;
    double t0, t_sk, t_dk;
    sk_init();
    dk_init();
    selftest();
    t0 = cpu_now();
    for (long i = 0; i < n; i++) { SkDeal d; sk_deal(&d, &rng, 1); sum_sk += sk_playout(&d, &rng); }
    t_sk = cpu_now() - t0;
    t0 = cpu_now();
    for (long i = 0; i < n; i++) { DkDeal d; dk_deal(&d, &rng); sum_dk += dk_playout(&d, &rng); }
    t_dk = cpu_now() - t0;
    printf("{\"deals\": %ld, \"checksum\": %llu, \"results\": ["
           "{\"mode\": \"schafkopf_ruf_dealplay\", \"cpu_seconds\": %.6f, \"ns_per_card\": %.2f}, "
           "{\"mode\": \"doppelkopf_dealplay\", \"cpu_seconds\": %.6f, \"ns_per_card\": %.2f}]}\n",
           n, (unsigned long long)(sum_sk + sum_dk), t_sk, t_sk * 1e9 / (n * 32.0), t_dk, t_dk * 1e9 / (n * 48.0));
    return 0;
}
