//===- FakeEnvironment.h - readSettings over a map, for the tests ---------===//
#ifndef WARPSCOPE_RUNTIME_TESTS_FAKEENVIRONMENT_H
#define WARPSCOPE_RUNTIME_TESTS_FAKEENVIRONMENT_H

#include <map>
#include <string>

namespace warpscope::rt::test {

/// The environment fakeGetenv reads: each test sets it before reading.
inline std::map<std::string, std::string> FakeEnv;

/// getenv over FakeEnv, for readSettings(fakeGetenv).
inline const char *fakeGetenv(const char *Name) {
  auto It = FakeEnv.find(Name);
  return It == FakeEnv.end() ? nullptr : It->second.c_str();
}

} // namespace warpscope::rt::test

#endif // WARPSCOPE_RUNTIME_TESTS_FAKEENVIRONMENT_H
