// One name of each kind the project's .clang-tidy configures, wrong, next
// to its right twin; tidy_naming.test runs clang-tidy's
// readability-identifier-naming and ave-naming on it and expects the same
// findings from both.
#include <unistd.h>

extern char **environ; // named by unistd.h
#define good_macro 1
#define GOOD_MACRO 1

namespace Bad_Space {}
namespace good_space {}
namespace CLI {} // NamespaceIgnoredRegexp

class bad_class {};
class GoodClass {};
class raw_ostream; // declared, not defined here: not checked
class model {};     // ClassIgnoredRegexp

struct bad_struct {
  int Bad_Field;   // public member: camelBack
  int goodField;
};
struct GoodStruct {
private:
  int bad_private; // private member: CamelCase
  int GoodPrivate;

protected:
  int bad_protected;
  int GoodProtected;
};

union bad_union {
  int A;
};

enum class bad_enum { bad_constant, GoodConstant };
enum class GoodEnum { Other };

using bad_alias = int;
using GoodAlias = int;
typedef int bad_typedef;
typedef int GoodTypedef;

template <typename bad_param, int GoodValue> struct Holder {
  bad_param Value[GoodValue];
};

int Bad_Function(int bad_parameter) { return bad_parameter; }
int goodFunction(int GoodParameter) { return GoodParameter; }

struct Base {
  virtual ~Base() = default;
  virtual int Bad_Virtual() = 0; // the base's own name is checked
  int TraverseStmt();            // MethodIgnoredRegexp
};

struct Derived : Base {
  int Bad_Virtual() override { return 1; } // an override: the base's name
  int TraverseStmt();                      // named like a base member
  int Bad_Method() { return 2; }
  int goodMethod() { return 3; }
};

int variables() {
  int bad_variable = 1;
  int GoodVariable = 2;
  auto Lambda = [](int bad_lambda_parameter) { return bad_lambda_parameter; };
  return bad_variable + GoodVariable + Lambda(0);
}

int main(int argc, char **argv) { return goodFunction(argc) + (argv != nullptr); }
