-- Vendor callbacks already processed: a second delivery of the same body for the same attempt is a
-- replay and is refused.
CREATE TABLE webhook_deliveries (
    digest      bytea       PRIMARY KEY,
    provider    text        NOT NULL,
    attempt_id  uuid        NOT NULL,
    received_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_age ON webhook_deliveries (received_at);
