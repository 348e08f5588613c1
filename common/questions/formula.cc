#include "common/questions/formula.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace feedback::questions {

struct Formula::Node {
  char op = 0;  // '+', '-', '*', '/', 'n' (negate), '#' (number), 'f' (field)
  double number = 0;
  std::string field;
  std::shared_ptr<const Node> left, right;
};

namespace {

constexpr std::size_t kMaxLength = 1000;
constexpr int kMaxDepth = 32;

using NodePtr = std::shared_ptr<const Formula::Node>;

// Recursive descent: expr := term (('+'|'-') term)*; term := unary (('*'|'/') unary)*;
// unary := '-' unary | primary; primary := number | field | '(' expr ')'.
class Parser {
 public:
  Parser(std::string_view text, std::set<std::string>& fields) : text_(text), fields_(fields) {}

  NodePtr parseAll(std::string* error) {
    NodePtr node = expression(0);
    skipSpace();
    if (node && pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    if (!error_.empty()) {
      if (error) *error = error_;
      return nullptr;
    }
    return node;
  }

 private:
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  NodePtr fail(std::string message) {
    if (error_.empty()) error_ = std::move(message) + " at position " + std::to_string(pos_);
    return nullptr;
  }
  static NodePtr binary(char op, NodePtr l, NodePtr r) {
    auto n = std::make_shared<Formula::Node>();
    n->op = op;
    n->left = std::move(l);
    n->right = std::move(r);
    return n;
  }

  NodePtr expression(int depth) {
    NodePtr left = term(depth);
    while (left) {
      char op = accept('+') ? '+' : accept('-') ? '-' : 0;
      if (!op) break;
      NodePtr right = term(depth);
      if (!right) return nullptr;
      left = binary(op, left, right);
    }
    return left;
  }

  NodePtr term(int depth) {
    NodePtr left = unary(depth);
    while (left) {
      char op = accept('*') ? '*' : accept('/') ? '/' : 0;
      if (!op) break;
      NodePtr right = unary(depth);
      if (!right) return nullptr;
      left = binary(op, left, right);
    }
    return left;
  }

  NodePtr unary(int depth) {
    if (depth > kMaxDepth) return fail("nested too deeply");
    if (accept('-')) {
      NodePtr operand = unary(depth + 1);
      return operand ? binary('n', operand, nullptr) : nullptr;
    }
    return primary(depth);
  }

  NodePtr primary(int depth) {
    skipSpace();
    if (pos_ >= text_.size()) return fail("expected a number, a field key or '('");
    if (accept('(')) {
      NodePtr inner = expression(depth + 1);
      if (!inner) return nullptr;
      if (!accept(')')) return fail("expected ')'");
      return inner;
    }
    char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      std::size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.')) {
        ++pos_;
      }
      std::string literal(text_.substr(start, pos_ - start));
      char* end = nullptr;
      double value = std::strtod(literal.c_str(), &end);
      if (end != literal.c_str() + literal.size()) return fail("malformed number");
      // A calculated value is stored as a JSON number, which cannot be infinite.
      if (!std::isfinite(value)) return fail("number too large");
      auto n = std::make_shared<Formula::Node>();
      n->op = '#';
      n->number = value;
      return n;
    }
    if ((c >= 'a' && c <= 'z') || c == '_') {
      std::size_t start = pos_;
      while (pos_ < text_.size() &&
             ((text_[pos_] >= 'a' && text_[pos_] <= 'z') ||
              std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
        ++pos_;
      }
      auto n = std::make_shared<Formula::Node>();
      n->op = 'f';
      n->field = std::string(text_.substr(start, pos_ - start));
      fields_.insert(n->field);
      return n;
    }
    return fail("unexpected '" + std::string(1, c) + "'");
  }

  std::string_view text_;
  std::set<std::string>& fields_;
  std::size_t pos_ = 0;
  std::string error_;
};

std::optional<double> eval(const Formula::Node& n,
                           const std::function<std::optional<double>(const std::string&)>& of) {
  switch (n.op) {
    case '#':
      return n.number;
    case 'f':
      return of(n.field);
    case 'n': {
      auto v = eval(*n.left, of);
      return v ? std::optional(-*v) : std::nullopt;
    }
    default:
      break;
  }
  auto l = eval(*n.left, of);
  auto r = eval(*n.right, of);
  if (!l || !r) return std::nullopt;
  double result = 0;
  switch (n.op) {
    case '+':
      result = *l + *r;
      break;
    case '-':
      result = *l - *r;
      break;
    case '*':
      result = *l * *r;
      break;
    case '/':
      if (*r == 0) return std::nullopt;
      result = *l / *r;
      break;
  }
  return std::isfinite(result) ? std::optional(result) : std::nullopt;
}

}  // namespace

std::optional<Formula> Formula::parse(std::string_view text, std::string* error) {
  if (text.size() > kMaxLength) {
    if (error) *error = "longer than 1000 characters";
    return std::nullopt;
  }
  Formula formula;
  Parser parser(text, formula.fields_);
  formula.root_ = parser.parseAll(error);
  if (!formula.root_) return std::nullopt;
  return formula;
}

std::optional<double> Formula::evaluate(
    const std::function<std::optional<double>(const std::string&)>& value_of) const {
  return eval(*root_, value_of);
}

}  // namespace feedback::questions
