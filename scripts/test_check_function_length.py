"""Unit tests of scripts/check-function-length.py's brace scanner."""
import importlib.util
import os
import unittest

spec = importlib.util.spec_from_file_location(
    "cfl", os.path.join(os.path.dirname(__file__), "check-function-length.py"))
cfl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cfl)


def body(n):
    return "\n".join("  x += %d;" % i for i in range(n - 1))


class Scanner(unittest.TestCase):
    def lengths(self, text):
        return {name: length for name, _, length in cfl.functions(text)}

    def test_length_is_closing_minus_opening_line(self):
        text = "int f(int x) {\n%s\n}\n" % body(151)
        self.assertEqual(self.lengths(text), {"f": 151})

    def test_methods_qualifiers_and_initializer_lists(self):
        text = ("namespace n {\nstruct S : B {\n"
                "  S(int a) : A{a}, C(2), D{} {\n    go();\n  }\n"
                "  int get() const noexcept override { return 1; }\n"
                "  auto t() -> int {\n    return 2;\n  }\n};\n}\n")
        self.assertEqual(self.lengths(text), {"S": 2, "get": 0, "t": 2})

    def test_literals_comments_and_lambdas_do_not_confuse(self):
        text = ('static const char *K = "{";\n'
                "auto L = [](int) { return 0; };\n"
                'extern "C" {\n'
                "int g() {\n  // }\n  const char *r = R\"x(})x\";\n"
                "  auto f = [&] {\n    return '}';\n  };\n"
                "  /* { */ return 1'000;\n}\n}\n"
                "#define M(x) { x }\n"
                "int Table[] = {1, 2};\n")
        self.assertEqual(self.lengths(text), {"g": 7})

    def test_control_statements_are_not_functions(self):
        text = "void h() {\n  if (a) {\n  }\n  while (b) {\n  }\n}\n"
        self.assertEqual(self.lengths(text), {"h": 5})


if __name__ == "__main__":
    unittest.main()
