#pragma once
// What the HTTP client's tests talk to: a CA and server certificates made at run time (so
// that nothing secret lives in the tree), and a local HTTP(S) server that records requests
// and answers as a script says.

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace feedback::net::testing {

using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using Cert = std::unique_ptr<X509, decltype(&X509_free)>;

struct Pki {
  Pki();
  ~Pki();
  Key ca_key, server_key;
  Cert ca;
  Cert server;      // for IP:127.0.0.1 and DNS:localhost, issued by `ca`
  Cert wrong_name;  // for DNS:other.example only, issued by `ca`
  std::filesystem::path dir;
  std::string ca_file;       // `ca` as PEM
  std::string garbage_file;  // text that is no certificate
};
// Made once per run; its files are removed at exit.
Pki& pki();

// A server context presenting `cert` with pki().server_key.
std::unique_ptr<boost::asio::ssl::context> serverTls(X509* cert);

struct Seen {
  int connection = 0;  // 1 for the first connection accepted, and so on
  std::string method, target, body;
  std::map<std::string, std::string> headers;  // names in lower case
};

struct Reply {
  enum Kind { kAnswer, kSilent, kClose, kRaw } kind = kAnswer;
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers = {};
  std::string body = "ok";
  bool close_after = false;  // answers with keep-alive, then closes anyway
  std::string raw = {};      // kRaw: written as it is, then the TCP connection ends
};
// Decides how to answer the index-th request (from 0) of a connection.
using Script = std::function<Reply(const Seen&, int)>;

// Listens on 127.0.0.1, port 0, on its own thread; plain HTTP when `tls` is null.
class TestServer {
 public:
  TestServer(std::unique_ptr<boost::asio::ssl::context> tls, Script script);
  ~TestServer();
  std::string url(const std::string& path = "/hook") const;
  int accepted() const;
  std::vector<Seen> seen() const;

 private:
  using Tcp = boost::asio::ip::tcp;
  boost::asio::awaitable<void> acceptLoop();
  boost::asio::awaitable<void> session(Tcp::socket socket, int connection);
  template <class Stream>
  boost::asio::awaitable<void> serve(Stream& stream, int connection);
  Seen record(const boost::beast::http::request<boost::beast::http::string_body>& request,
              int connection);

  std::unique_ptr<boost::asio::ssl::context> tls_;
  Script script_;
  boost::asio::io_context io_;
  Tcp::acceptor acceptor_;
  unsigned short port_ = 0;
  mutable std::mutex mutex_;
  int accepted_ = 0;
  std::vector<Seen> seen_;
  std::thread thread_;
};

// A script that gives every request the same reply.
Script answer(Reply reply);

}  // namespace feedback::net::testing
