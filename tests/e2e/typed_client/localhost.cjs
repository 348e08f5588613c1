// Preloaded by tests/e2e/typed_client.sh: *.localhost names the loopback (RFC 6761), as browsers
// resolve it, so the client reaches a workspace's intake by its host name; Node's resolver
// does not know that.
"use strict";
const dns = require("dns");
const lookup = dns.lookup;
dns.lookup = function (host, options, callback) {
  if (typeof options === "function") [callback, options] = [options, {}];
  if (!/\.localhost$/i.test(host)) return lookup.call(dns, host, options, callback);
  const all = typeof options === "object" && options !== null && options.all;
  return all ? callback(null, [{ address: "127.0.0.1", family: 4 }]) : callback(null, "127.0.0.1", 4);
};
