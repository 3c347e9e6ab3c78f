package io.idem.server.http;

import io.javalin.config.JavalinConfig;

/**
 * One feature of the HTTP surface (jobs, chat, the console…): it installs its own routes, and any
 * before-handlers or lifecycle hooks they need, on the app being built. Installed once, before the
 * server starts; the handlers it installs must be thread-safe (each request runs on its own
 * virtual thread).
 */
@FunctionalInterface
public interface Feature {
    void install(JavalinConfig config);
}
