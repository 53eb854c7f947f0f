#pragma once
// A minimal JSON reader for the trace tests: enough to prove that a trace file is valid JSON and
// to walk its events.  Throws std::runtime_error with the offset of the first error.
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace kdag_test_json {

struct Value {
  enum class Type { null, boolean, number, string, array, object } type = Type::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> array;
  std::map<std::string, Value> object;

  const Value& operator[](const std::string& key) const {
    static const Value missing;
    auto it = object.find(key);
    return it == object.end() ? missing : it->second;
  }
  bool has(const std::string& key) const { return object.count(key) != 0; }
};

class Parser {
 public:
  explicit Parser(std::string text) : m_text(std::move(text)) {}
  Value parse() {
    Value v = value();
    skip();
    if (m_at != m_text.size()) fail("text after the value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("invalid JSON at offset " + std::to_string(m_at) + ": " + what);
  }
  void skip() {
    while (m_at < m_text.size() && (m_text[m_at] == ' ' || m_text[m_at] == '\n' || m_text[m_at] == '\t' || m_text[m_at] == '\r')) ++m_at;
  }
  bool eat(char c) {
    skip();
    if (m_at < m_text.size() && m_text[m_at] == c) {
      ++m_at;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  bool word(const char* w) {
    const std::string s(w);
    if (m_text.compare(m_at, s.size(), s) != 0) return false;
    m_at += s.size();
    return true;
  }
  std::string string_literal() {
    expect('"');
    std::string out;
    while (m_at < m_text.size() && m_text[m_at] != '"') {
      char c = m_text[m_at++];
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c == '\\') {
        if (m_at >= m_text.size()) fail("unfinished escape");
        const char e = m_text[m_at++];
        switch (e) {
          case '"': case '\\': case '/': out += e; break;
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'u':
            if (m_at + 4 > m_text.size()) fail("short \\u escape");
            out += static_cast<char>(std::strtol(m_text.substr(m_at, 4).c_str(), nullptr, 16));
            m_at += 4;
            break;
          default: fail("unknown escape");
        }
      } else {
        out += c;
      }
    }
    if (m_at >= m_text.size()) fail("unterminated string");
    ++m_at;
    return out;
  }
  Value value() {
    skip();
    if (m_at >= m_text.size()) fail("unexpected end");
    Value v;
    const char c = m_text[m_at];
    if (c == '{') {
      ++m_at;
      v.type = Value::Type::object;
      if (eat('}')) return v;
      do {
        skip();
        std::string key = string_literal();
        expect(':');
        v.object[key] = value();
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++m_at;
      v.type = Value::Type::array;
      if (eat(']')) return v;
      do v.array.push_back(value());
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.type = Value::Type::string;
      v.string = string_literal();
    } else if (word("true")) {
      v.type = Value::Type::boolean;
      v.boolean = true;
    } else if (word("false")) {
      v.type = Value::Type::boolean;
    } else if (word("null")) {
    } else {
      const char* begin = m_text.c_str() + m_at;
      char* end = nullptr;
      v.number = std::strtod(begin, &end);
      if (end == begin) fail("not a value");
      v.type = Value::Type::number;
      m_at += static_cast<std::size_t>(end - begin);
    }
    return v;
  }

  std::string m_text;
  std::size_t m_at = 0;
};

inline Value parse_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return Parser(text.str()).parse();
}

}  // namespace kdag_test_json
