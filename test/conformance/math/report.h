// Command line, result table, and the raw dump/compare of the math suite.
#pragma once

// Dump format: a line "warpscope-mathconf/1", then per function a line
// "<name> <count> <bytes per result>" followed by the raw result bytes.
static bool compareDump(FILE *f, const Entry &e, const Result &r,
                        size_t &diffs) {
  char name[128];
  size_t n = 0, w = 0;
  if (fscanf(f, "%127s %zu %zu", name, &n, &w) != 3 || fgetc(f) != '\n' ||
      strcmp(name, e.name) != 0 || n * w != r.raw.size()) {
    fprintf(stderr,
            "error: dump does not match this binary at %s; compare dumps "
            "made by the same build with the same --inputs\n",
            e.name);
    return false;
  }
  std::vector<unsigned char> other(n * w);
  if (fread(other.data(), 1, other.size(), f) != other.size())
    return false;
  diffs = 0;
  for (size_t i = 0; i < n; ++i)
    diffs += memcmp(&other[i * w], &r.raw[i * w], w) != 0;
  return true;
}

int main(int argc, char **argv) {
  int nRandom = 1024;
  const char *filter = "", *dump = nullptr, *cmp = nullptr;
  bool markdown = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--inputs" && i + 1 < argc) {
      char *end = nullptr;
      long v = strtol(argv[++i], &end, 10);
      nRandom = *end || v < 0 || v > 100000000 ? -1 : (int)v;
    } else if (a == "--filter" && i + 1 < argc)
      filter = argv[++i];
    else if (a == "--dump" && i + 1 < argc)
      dump = argv[++i];
    else if (a == "--compare" && i + 1 < argc)
      cmp = argv[++i];
    else if (a == "--markdown")
      markdown = true;
    else {
      fprintf(stderr,
              "error: unknown argument '%s'; use --inputs N, --filter S, "
              "--markdown, --dump FILE, --compare FILE\n",
              argv[i]);
      return 2;
    }
  }
  if (nRandom < 0 || nRandom > 100000000) {
    fprintf(stderr, "error: --inputs takes an integer in [0, 100000000]\n");
    return 2;
  }
  FILE *df = dump ? fopen(dump, "wb") : nullptr;
  FILE *cf = cmp ? fopen(cmp, "rb") : nullptr;
  if ((dump && !df) || (cmp && !cf)) {
    fprintf(stderr, "error: cannot open %s\n", dump && !df ? dump : cmp);
    return 2;
  }
  char hdr[64] = "";
  if (cf && (!fgets(hdr, sizeof hdr, cf) ||
             strcmp(hdr, "warpscope-mathconf/1\n") != 0)) {
    fprintf(stderr, "error: %s is not a math conformance dump\n", cmp);
    return 2;
  }
  if (df)
    fputs("warpscope-mathconf/1\n", df);
  if (markdown)
    printf("| function | prec | inputs | checked | max ulp | at x (y) | max "
           "abs err | documented bound | result |\n|---|---|---|---|---|---|"
           "---|---|---|\n");
  int failed = 0, run = 0;
  size_t totalDiffs = 0;
  uint64_t seed = 1;
  for (const Entry &e : kEntries) {
    ++seed;
    if (!strstr(e.name, filter))
      continue;
    ++run;
    Result r = e.prec == F32 ? runEntry<float>(e, nRandom, seed)
                             : runEntry<double>(e, nRandom, seed);
    const char *verdict = r.failures ? "FAIL" : e.bound.info ? "info" : "ok";
    failed += r.failures != 0;
    std::string bound = boundText(e.bound);
    for (size_t p = 0; markdown && (p = bound.find('|', p)) != bound.npos;
         p += 2)
      bound.insert(p, "\\"); // a bare | would split the Markdown cell
    char at[96];
    snprintf(at, sizeof at, e.arity > 1 ? "%.9Lg (%.9Lg)" : "%.9Lg", r.atX,
             r.atY);
    printf(markdown ? "| %s | %s | %zu | %zu | %g | %s | %.3g | %s | %s |\n"
                    : "%-16s %s n=%-6zu checked=%-6zu max_ulp=%-4g at %-28s "
                      "max_abs=%-9.3g bound: %s  %s\n",
           e.name, e.prec == F32 ? "f32" : "f64", r.n, r.checked, r.maxUlp, at,
           r.maxAbs, bound.c_str(), verdict);
    if (r.failures)
      fprintf(stderr,
              "  %s: %zu inputs out of bound, first x=%.17Lg y=%.17Lg: got "
              "%.17Lg, reference %.20Lg\n",
              e.name, r.failures, r.failX, r.failY, r.failGot, r.failRef);
    if (df) {
      fprintf(df, "%s %zu %zu\n", e.name, r.n, r.raw.size() / r.n);
      fwrite(r.raw.data(), 1, r.raw.size(), df);
    }
    size_t diffs = 0;
    if (cf) {
      if (!compareDump(cf, e, r, diffs))
        return 2;
      if (diffs)
        printf("  %s: %zu of %zu results differ from %s\n", e.name, diffs, r.n,
               cmp);
      totalDiffs += diffs;
    }
  }
  if (df)
    fclose(df);
  if (cf)
    fclose(cf);
  if (run == 0) {
    fprintf(stderr, "error: no function matches --filter '%s'\n", filter);
    return 2;
  }
  printf("%d functions, %d out of bound%s\n", run, failed,
         cf ? (", " + std::to_string(totalDiffs) +
               " results differ from the "
               "dump")
                  .c_str()
            : "");
  return failed ? 1 : 0;
}
