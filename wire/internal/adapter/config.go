package adapter

// Config is what the options of package wire (wire.Option) set, and what
// the adapters read. It lives here, where only the packages under wire can
// import it, so that wire.Option is one type for both adapters while a
// caller can neither read a configuration nor build one but with wire's
// functions.
type Config struct {
	OnText     func(index int64, text []byte)
	OnThinking func(index int64, thinking []byte)
	Choice     int64 // the Chat Completions choice read
}

// NewConfig applies opts, wire.Options, to the zero [Config]: it takes any
// type of wire.Option's shape because this package cannot import wire,
// which imports it.
func NewConfig[O ~func(*Config)](opts []O) Config {
	var c Config
	for _, o := range opts {
		o(&c)
	}
	return c
}
