#pragma once
// Typed reading of environment variables. Every problem is collected so that a process
// refuses to start with one message naming every bad setting, not just the first.

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace feedback {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct HostPort {
  std::string host;
  int port = 0;
};

class Env {
 public:
  using Lookup = std::function<const char*(const char*)>;
  explicit Env(Lookup lookup = nullptr);

  std::string text(const char* name, std::string fallback);
  std::string requiredText(const char* name);
  int integer(const char* name, int fallback, int min, int max);
  double number(const char* name, double fallback, double min, double max);
  bool boolean(const char* name, bool fallback);
  // "host:port", e.g. a peer's gRPC address.
  HostPort address(const char* name, const std::string& fallback);
  // A peer's gRPC address as a gRPC target: "host:port" (every address the name resolves to,
  // e.g. a Kubernetes headless Service's pods) or "ip:port,ip:port,..." (IPv4 replicas).
  std::string grpcTarget(const char* name, const std::string& fallback);
  // "redis://host:port[/db]".
  HostPort redisUrl(const char* name, const std::string& fallback);
  // Records a problem found by the caller (e.g. a value that parses but makes no sense).
  void problem(std::string message) { problems_.push_back(std::move(message)); }
  // Throws ConfigError listing every problem seen so far.
  void check() const;

 private:
  const char* raw(const char* name) const;
  std::vector<std::string> problems_;
  Lookup lookup_;
};

// Parses "host:port"; false when malformed or the port is out of range.
bool parseHostPort(const std::string& text, HostPort& out);

// "host:port" -> "dns:///host:port"; "a:p,b:q" (IPv4 literals) -> "ipv4:a:p,b:q"; false when
// malformed.
bool parseGrpcTarget(const std::string& text, std::string& out);

}  // namespace feedback
