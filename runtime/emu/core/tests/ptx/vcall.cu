// Virtual and function-pointer calls (indirect call.uni with a prototype).
struct Shape {
  __device__ virtual int area(int x) const { return x; }
};
struct Square : Shape {
  __device__ int area(int x) const override { return x * x; }
};
struct Twice : Shape {
  __device__ int area(int x) const override { return 2 * x + 1; }
};
typedef int (*Op)(int);
__device__ __noinline__ int inc(int x) { return x + 1; }
__device__ __noinline__ int neg(int x) { return -x; }
__device__ Op ops[2] = {inc, neg};

__global__ void vcall(const int *sel, int *out) {
  int t = threadIdx.x;
  Shape s;
  Square q;
  Twice w;
  const Shape *p = sel[t] == 0 ? &s : sel[t] == 1 ? (const Shape *)&q : (const Shape *)&w;
  out[t] = p->area(t) + ops[sel[t] & 1](t);
}
