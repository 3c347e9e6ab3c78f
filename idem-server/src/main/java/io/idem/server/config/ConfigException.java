package io.idem.server.config;

/** A configuration value Idem cannot start with; the message names the setting and the value. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
