#pragma once
// Typed reading of environment variables. Every problem is collected so that a process
// refuses to start with one message naming every bad setting, not just the first.

#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
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

// What docs/configuration.md says of a setting, written where the setting is read: what it
// does, and for a default computed at start-up, how (e.g. "the number of cores") rather
// than the value on the machine that wrote the page.
struct About {
  const char* meaning = "";
  const char* computed_default = nullptr;
  // What a text setting must be when the caller checks it further (e.g. "base64 of 32
  // bytes"), in place of "text".
  const char* accepted = nullptr;
};

// A setting as a process read it: the rows of docs/configuration.md.
struct SettingInfo {
  std::string name;
  std::string fallback;  // empty when required or empty by default
  std::string accepted;  // what passes the check, e.g. "an integer from 1 to 256"
  std::string meaning;
  bool required = false;
};

class Env {
 public:
  using Lookup = std::function<const char*(const char*)>;
  explicit Env(Lookup lookup = nullptr);
  // Every lookup finds nothing: the defaults, as a process describes its settings with.
  static Env empty();

  std::string text(const char* name, std::string fallback, About about = {});
  std::string requiredText(const char* name, About about = {});
  // One of `choices`.
  std::string choice(const char* name, std::string fallback,
                     std::initializer_list<std::string_view> choices, About about = {});
  int integer(const char* name, int fallback, int min, int max, About about = {});
  double number(const char* name, double fallback, double min, double max, About about = {});
  bool boolean(const char* name, bool fallback, About about = {});
  // "host:port", e.g. a peer's gRPC address.
  HostPort address(const char* name, const std::string& fallback, About about = {});
  // A peer's gRPC address as a gRPC target: "host:port" (every address the name resolves to,
  // e.g. a Kubernetes headless Service's pods) or "ip:port,ip:port,..." (IPv4 replicas).
  std::string grpcTarget(const char* name, const std::string& fallback, About about = {});
  // "redis://host:port[/db]".
  HostPort redisUrl(const char* name, const std::string& fallback, About about = {});
  // Records a problem found by the caller (e.g. a value that parses but makes no sense).
  void problem(std::string message) { problems_.push_back(std::move(message)); }
  // Throws ConfigError listing every problem seen so far.
  void check() const;

  // Every setting read so far, each once, in the order first read.
  const std::vector<SettingInfo>& settings() const { return settings_; }
  // settings() as a JSON array of {"name", "default", "accepted", "meaning", "required"}.
  std::string settingsJson() const;

 private:
  const char* raw(const char* name) const;
  std::string valueOr(const char* name, const std::string& fallback) const;
  void note(const char* name, std::string fallback, std::string accepted, const About& about,
            bool required = false);
  std::vector<std::string> problems_;
  std::vector<SettingInfo> settings_;
  Lookup lookup_;
};

// Settings that several processes read alike, described once.
inline constexpr const char* kRedisUrlAbout = "the shared Redis";
inline constexpr const char* kHostSuffixAbout = "workspace hosts are <subdomain>.<suffix>";
inline constexpr const char* kAllowPrivateAbout =
    "accept webhook URLs on loopback and private addresses and deliver to them (tests only)";
// PUBLIC_SCHEME, read by every process that writes public addresses (a link's public_url,
// media addresses): "http" or "https" (the default).
std::string publicScheme(Env& env);
// SECRETS_KEY, the same in every process that reads it: base64 of 32 random bytes (a problem
// otherwise).
std::string secretsKey(Env& env);

// Whether a process was asked to print the settings it reads (its first argument is
// --settings) rather than to run: scripts/docs makes docs/configuration.md of them.
bool asksForSettings(int argc, char** argv);

// Parses "host:port"; false when malformed or the port is out of range.
bool parseHostPort(const std::string& text, HostPort& out);

// "host:port" -> "dns:///host:port"; "a:p,b:q" (IPv4 literals) -> "ipv4:a:p,b:q"; false when
// malformed.
bool parseGrpcTarget(const std::string& text, std::string& out);

}  // namespace feedback
