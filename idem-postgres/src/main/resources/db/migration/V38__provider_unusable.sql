-- A vendor answer that says the provider cannot serve us (quota spent, credentials refused, model
-- not found) closes the provider for breaker.unusable_for_seconds: a provider.unusable provider
-- event (reason, until, node; never the key) that webhook subscribers hear of like a breaker move.
DROP TRIGGER provider_events_outbox ON provider_events;
CREATE TRIGGER provider_events_outbox AFTER INSERT ON provider_events FOR EACH ROW
    WHEN (NEW.type IN ('breaker.open', 'breaker.closed', 'provider.unhealthy', 'provider.recovered',
                       'tier.static_active', 'provider.unusable'))
    EXECUTE FUNCTION outbox_provider_event();
