package io.recourse.config;

/**
 * A configuration value Recourse cannot start with (STYLE.md "Errors": fail fast at startup with
 * the offending key and value named). The message always names the key and the value.
 */
public final class ConfigurationException extends RuntimeException {

    private final String key;

    public ConfigurationException(String key, Object value, String problem) {
        super("invalid configuration " + key + "=" + value + ": " + problem);
        this.key = key;
    }

    public ConfigurationException(String message) {
        super(message);
        this.key = null;
    }

    /** The offending key, or {@code null} when the problem spans several keys. */
    public String key() {
        return key;
    }
}
