package io.idem.server.config;

/** A configuration value Idem cannot start with; the message names the setting and the value. */
public final class ConfigException extends io.idem.core.IdemException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
