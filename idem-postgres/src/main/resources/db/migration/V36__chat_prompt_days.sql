-- Opt-in traffic statistics for compiling the static tier (chat.answer_retention_days > 0):
-- per normalized single-turn prompt and UTC day, how often it was asked and the last answer a
-- live model served for it. Purged after the retention period.
CREATE TABLE chat_prompt_days (
    prompt_key   text        NOT NULL CHECK (length(prompt_key) BETWEEN 1 AND 500),
    day          date        NOT NULL,
    calls        bigint      NOT NULL CHECK (calls > 0),
    prompt       text        NOT NULL,
    answer       text        NOT NULL,
    answer_model text        NOT NULL,
    answered_at  timestamptz NOT NULL,
    PRIMARY KEY (prompt_key, day)
);

CREATE INDEX chat_prompt_days_day ON chat_prompt_days (day);
