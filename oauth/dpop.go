package oauth

import (
	"errors"
	"net/http"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/dpop"
)

// checkBinding applies RFC 9449 to a request whose token p stands for,
// with DPoP on: a Bearer token must not be bound to a key (§7.2); a DPoP
// one must be (cnf.jkt, §6.1), and its proof must be good for the request,
// the token and that key (§4.3, §7.1), with the server's nonce when the
// checker requires one (§9). It returns the refusal, or an error when the
// proof could not be checked at all (the replay cache failed).
func (rs *ResourceServer) checkBinding(w http.ResponseWriter, r *http.Request, c credentials, p *auth.Principal) (*refusal, error) {
	jkt := confirmation(p)
	if c.scheme == schemeBearer {
		if jkt != "" {
			return &refusal{http.StatusUnauthorized, codeInvalidToken,
				"the access token is bound to a DPoP key: send it as Authorization: DPoP with a DPoP proof", schemeBearer}, nil
		}
		return nil, nil
	}
	if jkt == "" {
		return &refusal{http.StatusUnauthorized, codeInvalidToken,
			"the access token is not bound to a DPoP key (it has no cnf.jkt)", schemeDPoP}, nil
	}
	_, err := rs.dpop.Check(r.Context(), c.proof, r.Method, rs.requestURL(r), c.token, jkt)
	switch {
	case errors.Is(err, dpop.ErrUseNonce):
		w.Header().Set("DPoP-Nonce", rs.dpop.Nonce())
		return &refusal{http.StatusUnauthorized, codeUseDPoPNonce,
			"the DPoP proof needs the nonce of the DPoP-Nonce header", schemeDPoP}, nil
	case errors.Is(err, dpop.ErrInvalidProof):
		return &refusal{http.StatusUnauthorized, codeInvalidDPoPProof, err.Error(), schemeDPoP}, nil
	case err != nil:
		return nil, err
	}
	w.Header().Set("DPoP-Nonce", rs.dpop.Nonce())
	return nil, nil
}

// confirmation returns the cnf.jkt of p (RFC 9449 §6.1): its
// Claims["cnf"], a map[string]any (as JSON decodes the claim) or a
// map[string]string, holding "jkt", a string; "" when there is none.
func confirmation(p *auth.Principal) string {
	switch cnf := p.Claims["cnf"].(type) {
	case map[string]any:
		jkt, _ := cnf["jkt"].(string)
		return jkt
	case map[string]string:
		return cnf["jkt"]
	}
	return ""
}

// requestURL is the URL a proof's htu must name: the resource's scheme
// and host, which the server knows better than a request behind a proxy
// does, and the request's path.
func (rs *ResourceServer) requestURL(r *http.Request) string {
	u := rs.c.origin
	u.Path, u.RawPath = r.URL.Path, r.URL.RawPath
	return u.String()
}
