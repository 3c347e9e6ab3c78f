package io.idem.core.chat;

/** A chain request Idem refuses; {@link #field()} names the offending field for the 400. */
public final class InvalidChainException extends io.idem.core.IdemException {
    private final String field;
    private final String code;

    public InvalidChainException(String field, String code, String message) {
        super(message, false);
        this.field = field;
        this.code = code;
    }

    public String field() {
        return field;
    }

    public String code() {
        return code;
    }
}
